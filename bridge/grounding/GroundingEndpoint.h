#pragma once

#include "automation/Grounding.h"

#include <QPointF>
#include <QString>

#include <optional>

namespace Bridge {

/// The owner's grounding endpoint, as Settings holds it: an OpenAI-compatible chat-completions
/// server with a vision model that they run themselves (llama.cpp, vLLM, Ollama…). Empty url:
/// none, and nothing is ever sent anywhere.
struct GroundingSettings
{
    /// The API's base ("http://127.0.0.1:8080/v1") or its chat-completions URL itself.
    QString url;
    QString model;
    int timeoutMs = 30000;
    static constexpr int kMinTimeoutMs = 1000;
    static constexpr int kMaxTimeoutMs = 300000;

    bool configured() const { return !url.trimmed().isEmpty(); }
    /// An http or https URL with a host (what Settings and the command line accept).
    bool urlUsable() const;
    friend bool operator==(const GroundingSettings&, const GroundingSettings&) = default;
};

/// Asks the endpoint where a description is in an image: one chat completion with the image as a
/// data URL and a request for {"x", "y", "confidence"} in the image's pixels. Runs on the worker
/// thread (a local event loop of its own, bounded by its timeout and the call's deadline, and
/// stopped by the call's cancel flag).
class GroundingEndpoint final : public Automation::Grounding::Grounder
{
public:
    explicit GroundingEndpoint(GroundingSettings settings);

    Automation::Result<Automation::Grounding::Guess>
    locate(const QByteArray& png, QSize size, const QString& description, const Automation::CallContext& call) override;
    QJsonObject describe() const override;

    /// The chat-completions URL of a configured base or full URL.
    static QString completionsUrl(const QString& url);
    /// The point a model's answer names: the first JSON object with numeric "x" and "y" (and
    /// optionally "confidence" in 0..1) anywhere in `content`; nullopt when there is none (or x/y
    /// are null: the model did not see it).
    struct Point
    {
        QPointF at;
        std::optional<double> confidence;
    };
    static std::optional<Point> parseAnswer(const QString& content);

private:
    GroundingSettings m_settings;
};

} // namespace Bridge
