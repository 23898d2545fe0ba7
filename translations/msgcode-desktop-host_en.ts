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
</TS>
