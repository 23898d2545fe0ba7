#pragma once

#include "automation/CallContext.h"
#include "automation/DesktopBackend.h"
#include "automation/ElementCache.h"
#include "automation/Grounding.h"
#include "automation/Locator.h"
#include "automation/OwnedThread.h"
#include "bridge/evidence/ExecutionRecord.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QMutex>
#include <QObject>
#include <QPointer>
#include <QThread>
#include <QThreadPool>

#include <deque>
#include <functional>
#include <memory>
#include <type_traits>
#include <vector>

class QTimer;

namespace Bridge {

using Automation::JobContext;

/// A typed job: runs on the worker thread, returns its result or a contract error.
template <typename T> using TypedJob = std::function<Automation::Result<T>(JobContext&)>;
/// Gets a job's answer on the owner thread, after its evidence (if any) is on disk.
template <typename T> using TypedCompletion = std::function<void(const Automation::Result<T>&)>;

/// A job's place in the queue and what it keeps.
struct JobSpec
{
    QString executionId;
    QString method;
    /// The connection whose going away aborts the job (0: none).
    quint64 connectionId = 0;
    int timeoutMs = 60000;
    /// Injects input: once started, a timeout or an abort may come after the effect, so such
    /// answers are never retryable (docs/architecture.md, "Honest outcomes").
    bool sideEffect = false;
    QDeadlineTimer deadline;
    /// The execution's evidence, or null for a job that keeps none (read-only work for the
    /// host's own windows): its steps then go to a NullTrace.
    std::shared_ptr<Evidence::ExecutionRecord> record;
    /// The trees kept are complete (the host's "keep full trees for side effects").
    bool fullTrees = false;
};

struct ExecutorOptions
{
    int queueCapacity = 64;
    /// Answers kept so that abort can tell "finished" from "unknown".
    int rememberFinished = 1024;
};

class ExecutorWorker;

/// Single-flight executor: one worker QThread owns the backend; jobs run one at a time in
/// FIFO order; each answers DESKTOP_TIMEOUT at its deadline even while a backend call is stuck.
/// Lives on the thread that owns the connections (the GUI thread in the host).
class Executor final : public QObject
{
    Q_OBJECT

public:
    using BackendFactory = std::function<std::unique_ptr<Automation::DesktopBackend>()>;

    Executor(BackendFactory factory, ExecutorOptions options = {}, QObject* parent = nullptr);
    ~Executor() override;

    /// Queues a job; DESKTOP_HOST_NOT_READY (retryable) when the queue is full. `done` is called
    /// exactly once on the owner thread (with DESKTOP_TIMEOUT at the deadline even while the
    /// job is stuck in the backend, DESKTOP_ABORTED on abort/stop). With a record, `envelope`
    /// builds response.json from the answer and the answer waits until the evidence is written.
    template <typename T>
    std::optional<Automation::Error> submit(JobSpec spec, TypedJob<T> run, TypedCompletion<T> done,
                                            std::function<QJsonObject(const Automation::Result<T>&)> envelope = {});
    /// The error submit() would answer for `executionId` now, without queueing anything (so a
    /// confirmation token is not spent on a request that cannot be queued).
    std::optional<Automation::Error> admission(const QString& executionId) const;

    enum class AbortOutcome { Aborted, Unknown, Finished };
    /// Aborts a running or queued execution, which then answers DESKTOP_ABORTED.
    AbortOutcome abort(const QString& executionId);
    /// Why everything is aborted: `details.reason` "stop" (desktop.stop) or "shutdown".
    enum class AbortAllReason { Stop, Shutdown };
    /// Called for each aborted job that keeps evidence, before it answers (e.g. to add an audit
    /// step to its trace).
    using AbortHook = std::function<void(const QString& executionId, Evidence::ExecutionRecord& record)>;
    /// Aborts every running and queued job (shutdown, emergency stop); each answers
    /// DESKTOP_ABORTED. The cancel flags are set before this returns.
    int abortAll(AbortAllReason reason, const AbortHook& hook = {});
    /// A client went away: its queued jobs are dropped and its running job aborted.
    void connectionClosed(quint64 connectionId);

    int queuedCount() const { return static_cast<int>(m_queue.size()); }
    bool isBusy() const { return m_running != nullptr; }
    QString runningExecutionId() const;
    /// The method of the running execution (e.g. "desktop.click"); empty when idle.
    QString runningMethod() const;
    QStringList queuedExecutionIds() const;
    bool contains(const QString& executionId) const;

    /// Runs `inspect` on the worker after the jobs already handed to it, within `timeoutMs`
    /// (its CallContext carries that deadline). `done` is called exactly once on the owner
    /// thread: with the result, or with an error at the deadline while the worker is still busy.
    /// Nothing is kept (a NullTrace); `done` gets DESKTOP_TIMEOUT when it did not finish in time,
    /// DESKTOP_ABORTED when everything was stopped meanwhile.
    template <typename T> void inspect(int timeoutMs, TypedJob<T> inspect, TypedCompletion<T> done);

    /// Runs `configure` on the worker thread with the backend, after the jobs already handed to
    /// the worker (never during one). Capture values only: it runs on another thread.
    void configureBackend(std::function<void(Automation::DesktopBackend&)> configure);
    /// The owner's grounding endpoint from now on (null: none), handed to the worker after the
    /// jobs already queued.
    void setGrounder(std::shared_ptr<Automation::Grounding::Grounder> grounder);

    /// The backend's self-report, refreshed by the worker after each job (never blocks).
    Automation::BackendInfo backendInfo() const;

    /// Stops accepting work, aborts everything, stops the worker (waiting at most `waitMs`
    /// for a stuck backend call) and waits until every answer's evidence is written.
    void shutdown(int waitMs = 3000);

Q_SIGNALS:
    void jobStarted(const QString& executionId);
    void jobAnswered(const QString& executionId, const QString& outcome);
    /// The person's keyboard or mouse input stopped (`action` "aborted") or held ("waited",
    /// with the waits) the injected input of an execution.
    void userInputNoticed(const QString& executionId, const QString& action, const QJsonArray& waits);
    /// An element event an app reported (DesktopEvent), on the owner's thread.
    void desktopEvent(const QString& kind, const QJsonObject& payload, const QJsonArray& lineage);

private:
    /// A job with its type erased: the typed value waits in the closures' shared slot.
    struct ErasedJob
    {
        std::function<std::optional<Automation::Error>(JobContext&)> run;
        std::function<QJsonObject(const std::optional<Automation::Error>&)> envelope;
        std::function<void(const std::optional<Automation::Error>&, const std::optional<QString>& evidenceError)> done;
    };
    template <typename T>
    static ErasedJob erase(TypedJob<T> run, TypedCompletion<T> done,
                           std::function<QJsonObject(const Automation::Result<T>&)> envelope);
    std::optional<Automation::Error> submitErased(JobSpec spec, ErasedJob job);
    void inspectErased(int timeoutMs, ErasedJob job);

    struct Job;
    struct OwnerLink;
    struct Inspection;
    friend class ExecutorWorker;

    static QString key(const QString& executionId);
    void pump();
    void answer(const std::shared_ptr<Job>& job, const std::optional<Automation::Error>& given);
    void onWorkerFinished(const std::shared_ptr<Job>& job, const std::optional<Automation::Error>& error);
    void onDeadline(const std::shared_ptr<Job>& job);
    void rememberFinished(const QString& executionId);
    void setBackendInfo(const Automation::BackendInfo& info);

    ExecutorOptions m_options;
    std::deque<std::shared_ptr<Job>> m_queue;
    std::shared_ptr<Job> m_running;
    QHash<QString, std::shared_ptr<Job>> m_byId;
    QHash<QString, bool> m_finished;
    std::deque<QString> m_finishedOrder;
    std::shared_ptr<OwnerLink> m_link;
    std::vector<std::weak_ptr<Inspection>> m_inspections;
    std::unique_ptr<Automation::OwnedThread> m_thread;
    ExecutorWorker* m_worker = nullptr;
    QThreadPool m_evidencePool;
    mutable QMutex m_infoMutex;
    Automation::BackendInfo m_backendInfo;
    bool m_shutDown = false;
};

template <typename T>
Executor::ErasedJob Executor::erase(TypedJob<T> run, TypedCompletion<T> done,
                                    std::function<QJsonObject(const Automation::Result<T>&)> envelope)
{
    // Written by the worker before it reports back, read on the owner thread after that.
    auto slot = std::make_shared<std::optional<T>>();
    auto resultOf = [slot](const std::optional<Automation::Error>& error) -> Automation::Result<T> {
        if (error)
            return *error;
        return **slot;
    };
    ErasedJob job;
    job.run = [run = std::move(run), slot](JobContext& context) -> std::optional<Automation::Error> {
        auto result = run(context);
        if (!result)
            return result.error();
        *slot = std::move(result.value());
        return std::nullopt;
    };
    if (envelope)
        job.envelope = [envelope = std::move(envelope), resultOf](const std::optional<Automation::Error>& error) {
            return envelope(resultOf(error));
        };
    job.done = [done = std::move(done), resultOf](const std::optional<Automation::Error>& error,
                                                  const std::optional<QString>& evidenceError) {
        if (!done)
            return;
        Automation::Result<T> result = resultOf(error);
        if (evidenceError) {
            if (!result.ok())
                result = Automation::Error(result.error()).withDetail(QStringLiteral("evidenceError"), *evidenceError);
            else if constexpr (std::is_same_v<T, QJsonObject>)
                result.value().insert(QStringLiteral("evidenceError"), *evidenceError);
        }
        done(result);
    };
    return job;
}

template <typename T>
std::optional<Automation::Error> Executor::submit(JobSpec spec, TypedJob<T> run, TypedCompletion<T> done,
                                                  std::function<QJsonObject(const Automation::Result<T>&)> envelope)
{
    return submitErased(std::move(spec), erase<T>(std::move(run), std::move(done), std::move(envelope)));
}

template <typename T> void Executor::inspect(int timeoutMs, TypedJob<T> inspect, TypedCompletion<T> done)
{
    inspectErased(timeoutMs, erase<T>(std::move(inspect), std::move(done), {}));
}

} // namespace Bridge
