// The plain parts of the AxApi facade: error names and value constructors.
#include "automation/backends/macos/AxApi.h"

namespace Automation::Mac {

QString axErrorName(AxError error)
{
    switch (error) {
    case AxError::Success:
        return QStringLiteral("kAXErrorSuccess");
    case AxError::Failure:
        return QStringLiteral("kAXErrorFailure");
    case AxError::IllegalArgument:
        return QStringLiteral("kAXErrorIllegalArgument");
    case AxError::InvalidElement:
        return QStringLiteral("kAXErrorInvalidUIElement");
    case AxError::CannotComplete:
        return QStringLiteral("kAXErrorCannotComplete");
    case AxError::AttributeUnsupported:
        return QStringLiteral("kAXErrorAttributeUnsupported");
    case AxError::ActionUnsupported:
        return QStringLiteral("kAXErrorActionUnsupported");
    case AxError::NoValue:
        return QStringLiteral("kAXErrorNoValue");
    case AxError::ApiDisabled:
        return QStringLiteral("kAXErrorAPIDisabled");
    case AxError::NotificationUnsupported:
        return QStringLiteral("kAXErrorNotificationUnsupported");
    }
    return QStringLiteral("kAXErrorFailure");
}

AxValue AxValue::ofBool(bool b)
{
    AxValue v;
    v.type = Type::Bool;
    v.boolean = b;
    return v;
}

AxValue AxValue::ofNumber(double n)
{
    AxValue v;
    v.type = Type::Number;
    v.number = n;
    return v;
}

AxValue AxValue::ofString(const QString& s)
{
    AxValue v;
    v.type = Type::String;
    v.string = s;
    return v;
}

AxValue AxValue::ofPoint(QPointF p)
{
    AxValue v;
    v.type = Type::Point;
    v.point = p;
    return v;
}

AxValue AxValue::ofSize(QSizeF s)
{
    AxValue v;
    v.type = Type::Size;
    v.size = s;
    return v;
}

AxValue AxValue::ofElement(const AxElement& e)
{
    AxValue v;
    v.type = Type::Element;
    v.element = e;
    return v;
}

AxValue AxValue::ofElements(const QList<AxElement>& list)
{
    AxValue v;
    v.type = Type::Elements;
    v.elements = list;
    return v;
}

AxValue AxValue::ofRange(qint64 location, qint64 length)
{
    AxValue v;
    v.type = Type::Range;
    v.rangeLocation = location;
    v.rangeLength = length;
    return v;
}

} // namespace Automation::Mac
