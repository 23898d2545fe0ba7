#include "bridge/Executor.h"

#include "bridge/RecordTrace.h"

#include "automation/Grounding.h"
#include "automation/ocr/OcrEngine.h"

#include <QLoggingCategory>
#include <QTimer>

#include <utility>

namespace Bridge {

Q_LOGGING_CATEGORY(lcExecutor, "msgcode.bridge.executor")

using Automation::CancelToken;
using Automation::Error;
using Automation::ErrorCode;
using Automation::Result;

struct Executor::Job
{
    JobSpec spec;
    ErasedJob work;
    std::shared_ptr<CancelToken> cancel = std::make_shared<CancelToken>();
    QTimer* timer = nullptr;
    bool started = false;
    bool answered = false;
};

struct Executor::Inspection
{
    std::shared_ptr<CancelToken> cancel = std::make_shared<CancelToken>();
    ErasedJob work; ///< `run` is used on the worker; `done` on the owner thread only
    QTimer* timer = nullptr;

    // Owner thread only; moves `done` out first, so it is never destroyed on the worker.
    void finish(const std::optional<Error>& result)
    {
        if (!work.done)
            return;
        auto call = std::move(work.done);
        work.done = nullptr;
        if (timer) {
            timer->stop();
            timer->deleteLater();
            timer = nullptr;
        }
        call(result, std::nullopt);
    }
};

namespace {

// Runs a job's function, turning an escaped exception into an internal error.
std::optional<Error> guarded(const std::function<std::optional<Error>(JobContext&)>& run, JobContext& context)
{
    try {
        return run(context);
    } catch (const std::exception& e) {
        return Error::make(ErrorCode::InternalError,
                           QStringLiteral("unexpected failure: %1").arg(QString::fromLocal8Bit(e.what())));
    } catch (...) {
        return Error::make(ErrorCode::InternalError, QStringLiteral("unexpected failure"));
    }
}

} // namespace

// The worker outlives its owner only when a backend call is stuck at shutdown; this link lets
// it find out instead of posting to a deleted object.
struct Executor::OwnerLink
{
    QMutex mutex;
    Executor* owner = nullptr;
};

/// Lives on the worker thread; owns the backend and the element cache.
class ExecutorWorker final : public QObject
{
public:
    ExecutorWorker(std::shared_ptr<Executor::OwnerLink> link, Executor::BackendFactory factory)
        : m_link(std::move(link)), m_factory(std::move(factory))
    {
    }

    void start()
    {
        m_backend = m_factory();
        QMetaObject::invokeMethod(
            this, [this] { warmOcr(); }, Qt::QueuedConnection);
        post([info = m_backend->info()](Executor* owner) { owner->setBackendInfo(info); });
        // The apps' element events, from the backend's own thread to the owner's (queued).
        m_backend->setEventSink([link = m_link](const Automation::DesktopEvent& event) {
            QMutexLocker lock(&link->mutex);
            if (Executor* owner = link->owner) {
                QMetaObject::invokeMethod(
                    owner, [owner, event] { Q_EMIT owner->desktopEvent(event.kind, event.payload, event.lineage); },
                    Qt::QueuedConnection);
            }
        });
    }

    void stop()
    {
        m_backend.reset();
        m_ocr.reset();
    }

    // The OCR engine, made on first use on this thread; an engine whose first recognition is
    // slow (Vision compiles its model) is warmed right after the backend starts instead.
    Automation::Ocr::Engine* ocr()
    {
        if (!m_ocr)
            m_ocr = Automation::Ocr::createPlatformEngine();
        return m_ocr.get();
    }

    void warmOcr()
    {
        if (Automation::Ocr::Engine* engine = ocr(); engine->warmAtStart())
            engine->warmUp(Automation::Ocr::defaultLanguages());
    }

    void setGrounder(std::shared_ptr<Automation::Grounding::Grounder> grounder) { m_grounder = std::move(grounder); }

    void configure(const std::function<void(Automation::DesktopBackend&)>& configure)
    {
        if (m_backend)
            configure(*m_backend);
    }

    void inspect(const std::shared_ptr<Executor::Inspection>& inspection, QDeadlineTimer deadline)
    {
        const Automation::CallContext call(deadline, inspection->cancel);
        std::optional<Error> result;
        if (auto stop = call.checkpoint()) {
            result = *stop;
        } else if (!m_backend) {
            result = Error::make(ErrorCode::HostNotReady, QStringLiteral("the automation backend is not running"));
        } else {
            Automation::NullTrace trace;
            JobContext context{*m_backend, call, trace, m_elements, ocr(), m_grounder.get()};
            result = guarded(inspection->work.run, context);
        }
        post([inspection, result](Executor*) { inspection->finish(result); });
    }

    void run(const std::shared_ptr<Executor::Job>& job)
    {
        Evidence::ExecutionRecord* record = job->spec.record.get();
        const Automation::CallContext call(job->spec.deadline, job->cancel);
        std::optional<Error> result;
        if (auto stop = call.checkpoint()) {
            result = *stop;
        } else if (auto err = record ? record->open() : std::nullopt) {
            // No evidence, no execution: a side effect that leaves no record is not allowed.
            result = Error::make(ErrorCode::WorkspaceForbidden,
                                 QStringLiteral("cannot create the evidence directory: %1").arg(*err),
                                 QJsonObject{{QStringLiteral("reason"), QStringLiteral("evidence_unwritable")},
                                             {QStringLiteral("evidenceDir"), record->dirPath()}});
        } else if (record) {
            record->trace(QStringLiteral("start"), 0, true,
                          QJsonObject{{QStringLiteral("remainingMs"), call.remainingMs()}});
            RecordTrace trace(*record, job->spec.fullTrees);
            JobContext context{*m_backend, call, trace, m_elements, ocr(), m_grounder.get()};
            result = guarded(job->work.run, context);
        } else {
            Automation::NullTrace trace;
            JobContext context{*m_backend, call, trace, m_elements, ocr(), m_grounder.get()};
            result = guarded(job->work.run, context);
        }
        post([job, result, info = m_backend->info()](Executor* owner) {
            owner->setBackendInfo(info);
            owner->onWorkerFinished(job, result);
        });
    }

private:
    template <typename F> void post(F&& function)
    {
        QMutexLocker lock(&m_link->mutex);
        if (Executor* owner = m_link->owner) {
            QMetaObject::invokeMethod(
                owner, [owner, function = std::forward<F>(function)]() { function(owner); }, Qt::QueuedConnection);
        }
    }

    std::shared_ptr<Executor::OwnerLink> m_link;
    Executor::BackendFactory m_factory;
    std::unique_ptr<Automation::DesktopBackend> m_backend;
    Automation::ElementCache m_elements;
    std::unique_ptr<Automation::Ocr::Engine> m_ocr;
    std::shared_ptr<Automation::Grounding::Grounder> m_grounder;
};

Executor::Executor(BackendFactory factory, ExecutorOptions options, QObject* parent)
    : QObject(parent), m_options(options)
{
    m_link = std::make_shared<OwnerLink>();
    m_link->owner = this;
    m_thread = std::make_unique<Automation::OwnedThread>(QStringLiteral("mdh-automation"));
    m_worker = m_thread->adopt(new ExecutorWorker(m_link, std::move(factory)));
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker] { worker->start(); }, Qt::QueuedConnection);
    // Evidence is written off the owner thread, in answer order.
    m_evidencePool.setMaxThreadCount(1);
    m_evidencePool.setExpiryTimeout(-1);
    m_backendInfo.name = QStringLiteral("starting");
    m_backendInfo.message = QStringLiteral("the automation backend is starting");
}

Executor::~Executor()
{
    shutdown();
}

QString Executor::runningExecutionId() const
{
    return m_running ? m_running->spec.executionId : QString();
}

QString Executor::runningMethod() const
{
    return m_running ? m_running->spec.method : QString();
}

QStringList Executor::queuedExecutionIds() const
{
    QStringList ids;
    for (const auto& job : m_queue)
        ids.append(job->spec.executionId);
    return ids;
}

QString Executor::key(const QString& executionId)
{
    // Execution ids are request UUIDs, kept as the client sent them: compared case-insensitively.
    return executionId.toLower();
}

bool Executor::contains(const QString& executionId) const
{
    return m_byId.contains(key(executionId));
}

void Executor::inspectErased(int timeoutMs, ErasedJob work)
{
    if (!work.done)
        return;
    if (m_shutDown || !m_worker || !work.run) {
        work.done(Error::make(ErrorCode::HostNotReady, QStringLiteral("the host is shutting down"),
                              QJsonObject{{QStringLiteral("reason"), QStringLiteral("shutting_down")}}),
                  std::nullopt);
        return;
    }
    auto inspection = std::make_shared<Inspection>();
    inspection->work = std::move(work);
    inspection->timer = new QTimer(this);
    inspection->timer->setSingleShot(true);
    connect(inspection->timer, &QTimer::timeout, this, [inspection, timeoutMs] {
        inspection->cancel->cancel(CancelToken::Reason::TimedOut);
        inspection->finish(Error::make(ErrorCode::Timeout,
                                       QStringLiteral("the desktop could not be inspected within %1 ms").arg(timeoutMs),
                                       QJsonObject{{QStringLiteral("timeoutMs"), timeoutMs}}));
    });
    inspection->timer->start(timeoutMs);
    std::erase_if(m_inspections, [](const std::weak_ptr<Inspection>& weak) { return weak.expired(); });
    m_inspections.push_back(inspection);
    const QDeadlineTimer deadline(timeoutMs, Qt::PreciseTimer);
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, inspection, deadline] { worker->inspect(inspection, deadline); },
        Qt::QueuedConnection);
}

void Executor::setGrounder(std::shared_ptr<Automation::Grounding::Grounder> grounder)
{
    if (!m_worker)
        return;
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, grounder = std::move(grounder)] { worker->setGrounder(grounder); },
        Qt::QueuedConnection);
}

void Executor::configureBackend(std::function<void(Automation::DesktopBackend&)> configure)
{
    if (!m_worker || !configure)
        return;
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, configure = std::move(configure)] { worker->configure(configure); },
        Qt::QueuedConnection);
}

Automation::BackendInfo Executor::backendInfo() const
{
    QMutexLocker lock(&m_infoMutex);
    return m_backendInfo;
}

void Executor::setBackendInfo(const Automation::BackendInfo& info)
{
    QMutexLocker lock(&m_infoMutex);
    m_backendInfo = info;
}

std::optional<Error> Executor::admission(const QString& executionId) const
{
    if (m_shutDown)
        return Error::make(ErrorCode::HostNotReady, QStringLiteral("the host is shutting down"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("shutting_down")}})
            .withRetryable(false);
    if (static_cast<int>(m_queue.size()) >= m_options.queueCapacity)
        return Error::make(
            ErrorCode::HostNotReady,
            QStringLiteral("%1 executions are already queued; try again shortly").arg(m_options.queueCapacity),
            QJsonObject{{QStringLiteral("reason"), QStringLiteral("queue_full")},
                        {QStringLiteral("queueCapacity"), m_options.queueCapacity}});
    if (m_byId.contains(key(executionId)))
        return Error::invalidRequest(QStringLiteral("execution %1 is already in progress").arg(executionId), -32600,
                                     QJsonObject{{QStringLiteral("reason"), QStringLiteral("duplicate")}});
    return std::nullopt;
}

std::optional<Error> Executor::submitErased(JobSpec spec, ErasedJob work)
{
    if (auto refused = admission(spec.executionId))
        return refused;

    auto job = std::make_shared<Job>();
    job->spec = std::move(spec);
    job->work = std::move(work);
    job->timer = new QTimer(this);
    job->timer->setSingleShot(true);
    job->timer->setTimerType(Qt::PreciseTimer);
    std::weak_ptr<Job> weak = job;
    connect(job->timer, &QTimer::timeout, this, [this, weak] {
        if (auto j = weak.lock())
            onDeadline(j);
    });
    job->timer->start(static_cast<int>(std::max<qint64>(0, job->spec.deadline.remainingTime())));
    if (job->spec.record)
        job->spec.record->trace(QStringLiteral("queued"), 0, true,
                                QJsonObject{{QStringLiteral("position"), static_cast<int>(m_queue.size())},
                                            {QStringLiteral("running"), runningExecutionId()}});
    m_byId.insert(key(job->spec.executionId), job);
    m_queue.push_back(job);
    pump();
    return std::nullopt;
}

void Executor::pump()
{
    if (m_running || m_shutDown || m_queue.empty())
        return;
    m_running = m_queue.front();
    m_queue.pop_front();
    m_running->started = true;
    Q_EMIT jobStarted(m_running->spec.executionId);
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, job = m_running] { worker->run(job); }, Qt::QueuedConnection);
}

void Executor::onDeadline(const std::shared_ptr<Job>& job)
{
    if (job->answered)
        return;
    job->cancel->cancel(CancelToken::Reason::TimedOut);
    const bool queued = !job->started;
    if (queued)
        std::erase(m_queue, job);
    Error error = Error::make(
        ErrorCode::Timeout, QStringLiteral("the request did not finish within %1 ms").arg(job->spec.timeoutMs),
        QJsonObject{{QStringLiteral("timeoutMs"), job->spec.timeoutMs},
                    {QStringLiteral("phase"), queued ? QStringLiteral("queued") : QStringLiteral("running")}});
    if (!queued && job->spec.sideEffect)
        error.withRetryable(false).withDetail(QStringLiteral("mayHaveHadEffect"), true);
    answer(job, error);
}

Executor::AbortOutcome Executor::abort(const QString& executionId)
{
    const auto job = m_byId.value(key(executionId));
    if (!job)
        return m_finished.contains(key(executionId)) ? AbortOutcome::Finished : AbortOutcome::Unknown;
    job->cancel->cancel(CancelToken::Reason::Aborted);
    if (!job->started)
        std::erase(m_queue, job);
    Error error = Error::make(
        ErrorCode::Aborted, QStringLiteral("the execution was aborted"),
        QJsonObject{{QStringLiteral("executionId"), job->spec.executionId},
                    {QStringLiteral("phase"), job->started ? QStringLiteral("running") : QStringLiteral("queued")}});
    if (job->started && job->spec.sideEffect)
        error.withRetryable(false).withDetail(QStringLiteral("mayHaveHadEffect"), true);
    answer(job, error);
    return AbortOutcome::Aborted;
}

int Executor::abortAll(AbortAllReason reason, const AbortHook& hook)
{
    std::vector<std::shared_ptr<Job>> jobs;
    if (m_running && !m_running->answered)
        jobs.push_back(m_running);
    jobs.insert(jobs.end(), m_queue.begin(), m_queue.end());
    m_queue.clear();
    const bool shutdown = reason == AbortAllReason::Shutdown;
    // Every flag first, so the running job stops at its next checkpoint before any answer work.
    for (const auto& job : jobs)
        job->cancel->cancel(shutdown ? CancelToken::Reason::Shutdown : CancelToken::Reason::Aborted);
    const QString why = shutdown ? QStringLiteral("the host is shutting down")
                                 : QStringLiteral("all automation was stopped (desktop.stop)");
    for (const auto& job : jobs) {
        if (hook && job->spec.record)
            hook(job->spec.executionId, *job->spec.record);
        Error error = Error::make(
            ErrorCode::Aborted, why,
            QJsonObject{
                {QStringLiteral("executionId"), job->spec.executionId},
                {QStringLiteral("reason"), shutdown ? QStringLiteral("shutdown") : QStringLiteral("stop")},
                {QStringLiteral("phase"), job->started ? QStringLiteral("running") : QStringLiteral("queued")}});
        if (job->started && job->spec.sideEffect)
            error.withDetail(QStringLiteral("mayHaveHadEffect"), true);
        answer(job, error);
    }
    // Inspections in flight stop too (they are read-only, so there is nothing to undo).
    const auto inspections = std::exchange(m_inspections, {});
    for (const auto& weak : inspections) {
        if (const auto inspection = weak.lock()) {
            inspection->cancel->cancel(shutdown ? CancelToken::Reason::Shutdown : CancelToken::Reason::Aborted);
            inspection->finish(Error::make(ErrorCode::Aborted, why,
                                           QJsonObject{{QStringLiteral("reason"), shutdown ? QStringLiteral("shutdown")
                                                                                           : QStringLiteral("stop")}}));
        }
    }
    return static_cast<int>(jobs.size());
}

void Executor::connectionClosed(quint64 connectionId)
{
    std::vector<std::shared_ptr<Job>> jobs;
    if (m_running && !m_running->answered && m_running->spec.connectionId == connectionId)
        jobs.push_back(m_running);
    for (const auto& job : m_queue) {
        if (job->spec.connectionId == connectionId)
            jobs.push_back(job);
    }
    for (const auto& job : jobs) {
        job->cancel->cancel(CancelToken::Reason::Disconnected);
        if (!job->started)
            std::erase(m_queue, job);
        Error error = Error::make(ErrorCode::Aborted, QStringLiteral("the client disconnected"),
                                  QJsonObject{{QStringLiteral("executionId"), job->spec.executionId},
                                              {QStringLiteral("reason"), QStringLiteral("disconnected")}});
        if (job->started && job->spec.sideEffect)
            error.withDetail(QStringLiteral("mayHaveHadEffect"), true);
        answer(job, error);
    }
}

void Executor::rememberFinished(const QString& executionId)
{
    m_finished.insert(key(executionId), true);
    m_finishedOrder.push_back(key(executionId));
    while (static_cast<int>(m_finishedOrder.size()) > m_options.rememberFinished) {
        m_finished.remove(m_finishedOrder.front());
        m_finishedOrder.pop_front();
    }
}

void Executor::answer(const std::shared_ptr<Job>& job, const std::optional<Error>& given)
{
    if (job->answered)
        return;
    auto record = job->spec.record;
    // Every error answer of an execution says where its evidence is (a result says it in
    // `evidence.dir`); response.json holds the same answer.
    std::optional<Error> error = given;
    if (error && record && !error->details.contains(QStringLiteral("evidenceDir")))
        error->withDetail(QStringLiteral("evidenceDir"), record->dirPath());
    job->answered = true;
    if (job->timer) {
        job->timer->stop();
        job->timer->deleteLater();
        job->timer = nullptr;
    }
    m_byId.remove(key(job->spec.executionId));
    rememberFinished(job->spec.executionId);

    const QString outcome = error ? Automation::errorCodeName(error->code) : QStringLiteral("ok");
    const QString id = job->spec.executionId;
    auto done = std::move(job->work.done);
    job->work.done = nullptr;
    if (!record) {
        // Nothing to write: answered from the event loop all the same, never from inside the
        // call (abort, stop) that ended the job.
        QMetaObject::invokeMethod(
            this,
            [this, done, error, id, outcome] {
                if (done)
                    done(error, std::nullopt);
                Q_EMIT jobAnswered(id, outcome);
            },
            Qt::QueuedConnection);
        return;
    }
    const QString message = error ? error->message : QString();
    const QJsonObject envelope = job->work.envelope ? job->work.envelope(error) : QJsonObject();
    // The person at the desktop made the host stop (an abort) or hold (waits) its input.
    if (error && error->details.value(QStringLiteral("reason")).toString() == QLatin1String("user_input")) {
        Q_EMIT userInputNoticed(id, QStringLiteral("aborted"), {});
    } else if (const QJsonArray waits =
                   envelope.value(QStringLiteral("result")).toObject().value(QStringLiteral("yielded")).toArray();
               !waits.isEmpty()) {
        Q_EMIT userInputNoticed(id, QStringLiteral("waited"), waits);
    }
    // Evidence is on disk before the answer leaves, written off this thread.
    m_evidencePool.start([this, record, envelope, outcome, message, done, error, id] {
        const auto written = record->finalize(envelope, outcome, message);
        QMetaObject::invokeMethod(
            this,
            [this, done, error, written, id, outcome] {
                if (written)
                    qCWarning(lcExecutor) << "evidence for" << id << "was not written completely:" << *written;
                if (done)
                    done(error, written);
                Q_EMIT jobAnswered(id, outcome);
            },
            Qt::QueuedConnection);
    });
}

void Executor::onWorkerFinished(const std::shared_ptr<Job>& job, const std::optional<Error>& error)
{
    if (m_running == job)
        m_running.reset();
    if (job->answered) {
        // Answered earlier (timeout, abort): keep the late return in the trace for the record.
        if (auto record = job->spec.record) {
            record->trace(QStringLiteral("backend_returned_after_answer"), 0, !error,
                          QJsonObject{{QStringLiteral("outcome"),
                                       error ? Automation::errorCodeName(error->code) : QStringLiteral("ok")}});
            m_evidencePool.start([record] { record->rewriteTrace(); });
        }
    } else {
        answer(job, error);
    }
    pump();
}

void Executor::shutdown(int waitMs)
{
    if (m_shutDown)
        return;
    abortAll(AbortAllReason::Shutdown);
    m_shutDown = true;
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker] { worker->stop(); }, Qt::QueuedConnection);
    if (!m_thread->stop(waitMs)) {
        // A backend call is stuck; the process is going away, so leave the thread behind rather
        // than destroy a running QThread. The worker will find its owner gone.
        qCWarning(lcExecutor) << "the automation worker did not stop within" << waitMs << "ms; leaving it behind";
        QMutexLocker lock(&m_link->mutex);
        m_link->owner = nullptr;
    }
    m_worker = nullptr;
    m_evidencePool.waitForDone();
}

} // namespace Bridge
