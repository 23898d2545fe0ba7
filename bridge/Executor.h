#pragma once

#include "CallContext.h"
#include "DesktopBackend.h"
#include "ElementCache.h"
#include "ExecutionRecord.h"

#include <QHash>
#include <QJsonObject>
#include <QMutex>
#include <QObject>
#include <QPointer>
#include <QThread>
#include <QThreadPool>

#include <deque>
#include <functional>
#include <memory>
#include <vector>

class QTimer;

namespace Bridge {

/// What a job may use while it runs on the worker thread.
struct JobContext
{
    Automation::DesktopBackend& backend;
    Automation::CallContext call;
    Evidence::ExecutionRecord& record;
    ElementCache& elements;
};

using JobFunction = std::function<Automation::Result<QJsonObject>(JobContext&)>;
/// Called on the owner thread with the response envelope, after the evidence is on disk.
using JobCompletion = std::function<void(const Automation::Result<QJsonObject>& result)>;

/// One queued execution (contract 5.x side of DESIGN.md 3).
struct JobSpec
{
    QString executionId;
    QString method;
    quint64 connectionId = 0;
    int timeoutMs = 60000;
    /// Injects input: once started, a timeout or an abort may come after the effect, so such
    /// answers are never retryable (docs/architecture.md, "Honest outcomes").
    bool sideEffect = false;
    QDeadlineTimer deadline;
    std::shared_ptr<Evidence::ExecutionRecord> record;
    JobFunction run;
    JobCompletion done;
    /// Builds the response envelope written to response.json.
    std::function<QJsonObject(const Automation::Result<QJsonObject>&)> envelope;
};

/// A read-only look at the desktop (no evidence, no queue slot, no side effect): runs on the
/// worker between jobs with the backend and the element cache.
using InspectFunction = std::function<Automation::Result<QJsonObject>(
    Automation::DesktopBackend& backend, const ElementCache& elements, const Automation::CallContext& call)>;
/// Gets an InspectFunction's result on the owner thread; DESKTOP_TIMEOUT when it did not finish
/// in time, DESKTOP_ABORTED when everything was stopped meanwhile.
using InspectCompletion = std::function<void(const Automation::Result<QJsonObject>& result)>;

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

    /// Queues a job; DESKTOP_HOST_NOT_READY (retryable) when the queue is full.
    std::optional<Automation::Error> submit(JobSpec spec);
    /// The error submit() would answer for `executionId` now, without queueing anything (so a
    /// confirmation token is not spent on a request that cannot be queued).
    std::optional<Automation::Error> admission(const QString& executionId) const;

    enum class AbortOutcome { Aborted, Unknown, Finished };
    /// Aborts a running or queued execution, which then answers DESKTOP_ABORTED.
    AbortOutcome abort(const QString& executionId);
    /// Why everything is aborted: `details.reason` "stop" (desktop.stop) or "shutdown".
    enum class AbortAllReason { Stop, Shutdown };
    /// Called for each aborted job before it answers, e.g. to add an audit step to its evidence.
    using AbortHook = std::function<void(const QString& executionId, Evidence::ExecutionRecord& record)>;
    /// Aborts every running and queued job (shutdown, emergency stop); each answers
    /// DESKTOP_ABORTED. The cancel flags are set before this returns.
    int abortAll(AbortAllReason reason, const AbortHook& hook = {});
    /// A client went away: its queued jobs are dropped and its running job aborted.
    void connectionClosed(quint64 connectionId);

    int queuedCount() const { return static_cast<int>(m_queue.size()); }
    bool isBusy() const { return m_running != nullptr; }
    QString runningExecutionId() const;
    QStringList queuedExecutionIds() const;
    bool contains(const QString& executionId) const;

    /// Runs `inspect` on the worker after the jobs already handed to it, within `timeoutMs`
    /// (its CallContext carries that deadline). `done` is called exactly once on the owner
    /// thread: with the result, or with an error at the deadline while the worker is still busy.
    void inspect(int timeoutMs, InspectFunction inspect, InspectCompletion done);

    /// Runs `configure` on the worker thread with the backend, after the jobs already handed to
    /// the worker (never during one). Capture values only: it runs on another thread.
    void configureBackend(std::function<void(Automation::DesktopBackend&)> configure);

    /// The backend's self-report, refreshed by the worker after each job (never blocks).
    Automation::BackendInfo backendInfo() const;

    /// Stops accepting work, aborts everything, stops the worker (waiting at most `waitMs`
    /// for a stuck backend call) and waits until every answer's evidence is written.
    void shutdown(int waitMs = 3000);

Q_SIGNALS:
    void jobStarted(const QString& executionId);
    void jobAnswered(const QString& executionId, const QString& outcome);

private:
    struct Job;
    struct OwnerLink;
    struct Inspection;
    friend class ExecutorWorker;

    static QString key(const QString& executionId);
    void pump();
    void answer(const std::shared_ptr<Job>& job, const Automation::Result<QJsonObject>& given);
    void onWorkerFinished(const std::shared_ptr<Job>& job, const Automation::Result<QJsonObject>& result);
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
    QThread* m_thread = nullptr;
    ExecutorWorker* m_worker = nullptr;
    QThreadPool m_evidencePool;
    mutable QMutex m_infoMutex;
    Automation::BackendInfo m_backendInfo;
    bool m_shutDown = false;
};

} // namespace Bridge
