<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>App::ConfirmationDialog</name>
    <message numerus="yes">
        <source>%n more request(s) waiting</source>
        <translation>
            <numerusform>%n more request waiting</numerusform>
            <numerusform>%n more requests waiting</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Text: %n character(s), hidden</source>
        <translation>
            <numerusform>Text: %n character, hidden</numerusform>
            <numerusform>Text: %n characters, hidden</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Denied automatically in %n second(s)</source>
        <translation>
            <numerusform>Denied automatically in %n second</numerusform>
            <numerusform>Denied automatically in %n seconds</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>(the best of %n matching elements)</source>
        <translation>
            <numerusform>(%n matching element)</numerusform>
            <numerusform>(the best of %n matching elements)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>App::TrayController</name>
    <message numerus="yes">
        <source>You used the keyboard or mouse, so the automation waited for you (%n time(s)).</source>
        <translation>
            <numerusform>You used the keyboard or mouse, so the automation waited for you (%n time).</numerusform>
            <numerusform>You used the keyboard or mouse, so the automation waited for you (%n times).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Ctl</name>
    <message numerus="yes">
        <source>stopped: %n execution(s) aborted</source>
        <translation>
            <numerusform>stopped: %n execution aborted</numerusform>
            <numerusform>stopped: %n executions aborted</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n execution(s) in %1</source>
        <translation>
            <numerusform>%n execution in %1</numerusform>
            <numerusform>%n executions in %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n execution(s) exported to %1</source>
        <translation>
            <numerusform>%n execution exported to %1</numerusform>
            <numerusform>%n executions exported to %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>EvidenceViewer::EvidenceWindow</name>
    <message numerus="yes">
        <source>%n execution(s)</source>
        <translation>
            <numerusform>%n execution</numerusform>
            <numerusform>%n executions</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n execution(s) exported to %1</source>
        <translation>
            <numerusform>%n execution exported to %1</numerusform>
            <numerusform>%n executions exported to %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Inspector::InspectorWindow</name>
    <message numerus="yes">
        <source>%n node(s) disappeared since the last read: %1</source>
        <translation>
            <numerusform>%n node disappeared since the last read: %1</numerusform>
            <numerusform>%n nodes disappeared since the last read: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n match(es) in %1 ms</source>
        <translation>
            <numerusform>%n match in %1 ms</numerusform>
            <numerusform>%n matches in %1 ms</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>OCR layer: %n line(s) read in %1 ms by %2.</source>
        <translation>
            <numerusform>OCR layer: %n line read in %1 ms by %2.</numerusform>
            <numerusform>OCR layer: %n lines read in %1 ms by %2.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Remote::RemoteAgent</name>
    <message numerus="yes">
        <source>gave up after %n retries: %1</source>
        <translation>
            <numerusform>gave up after %n retry: %1</numerusform>
            <numerusform>gave up after %n retries: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SelectorLab</name>
    <message numerus="yes">
        <source>Ran against %n recorded tree(s).</source>
        <translation>
            <numerusform>Ran against %n recorded tree.</numerusform>
            <numerusform>Ran against %n recorded trees.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TreeDiffText</name>
    <message numerus="yes">
        <source>added: %1, with %n node(s) inside</source>
        <translation>
            <numerusform>added: %1, with %n node inside</numerusform>
            <numerusform>added: %1, with %n nodes inside</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>removed: %1, with %n node(s) inside</source>
        <translation>
            <numerusform>removed: %1, with %n node inside</numerusform>
            <numerusform>removed: %1, with %n nodes inside</numerusform>
        </translation>
    </message>
</context>
</TS>
