<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>App::ConfirmationDialog</name>
    <message>
        <source>app %1</source>
        <translation>应用 %1</translation>
    </message>
    <message>
        <source>pid %1</source>
        <translation>进程 %1</translation>
    </message>
    <message>
        <source>window &quot;%1&quot;</source>
        <translation>窗口“%1”</translation>
    </message>
    <message>
        <source>element %1</source>
        <translation>元素 %1</translation>
    </message>
    <message>
        <source>the frontmost window</source>
        <translation>最前面的窗口</translation>
    </message>
    <message>
        <source>Click</source>
        <translation>点击</translation>
    </message>
    <message>
        <source>Type text</source>
        <translation>输入文本</translation>
    </message>
    <message>
        <source>Press keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <source>Resume automation</source>
        <translation>恢复自动化</translation>
    </message>
    <message>
        <source>msgcode wants to act on your desktop</source>
        <translation>msgcode 请求在你的桌面上执行操作</translation>
    </message>
    <message>
        <source>Who asks:</source>
        <translation>请求方：</translation>
    </message>
    <message>
        <source>Action:</source>
        <translation>操作：</translation>
    </message>
    <message>
        <source>Target:</source>
        <translation>目标：</translation>
    </message>
    <message>
        <source>Details:</source>
        <translation>详情：</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>Approve</source>
        <translation>批准</translation>
    </message>
    <message numerus="yes">
        <source>%n more request(s) waiting</source>
        <translation>
            <numerusform>另有 %n 个请求在等待</numerusform>
        </translation>
    </message>
    <message>
        <source>unknown program</source>
        <translation>未知程序</translation>
    </message>
    <message>
        <source>%1 (pid %2, %3)</source>
        <translation>%1（进程 %2，%3）</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Keys: %1</source>
        <translation>按键：%1</translation>
    </message>
    <message numerus="yes">
        <source>Text: %n character(s), hidden</source>
        <translation>
            <numerusform>文本：%n 个字符，已隐藏</numerusform>
        </translation>
    </message>
    <message>
        <source>Text: &quot;%1&quot;</source>
        <translation>文本：“%1”</translation>
    </message>
    <message>
        <source>Side effects were stopped; this lets them run again.</source>
        <translation>有副作用的操作已被停止；批准后将允许它们再次执行。</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message numerus="yes">
        <source>Denied automatically in %n second(s)</source>
        <translation>
            <numerusform>%n 秒后自动拒绝</numerusform>
        </translation>
    </message>
    <message>
        <source>The target is a password field.</source>
        <translation>目标是一个密码输入框。</translation>
    </message>
    <message>
        <source>The target looks like a password, PIN or key field.</source>
        <translation>目标看起来像密码、PIN 或密钥输入框。</translation>
    </message>
    <message>
        <source>The target could not be checked, so the text is treated as secret.</source>
        <translation>无法检查目标，因此该文本按机密处理。</translation>
    </message>
    <message>
        <source>Scroll</source>
        <translation>滚动</translation>
    </message>
    <message>
        <source>Pick a menu item</source>
        <translation>选择菜单项</translation>
    </message>
    <message>
        <source>Use the pointer</source>
        <translation>使用鼠标指针</translation>
    </message>
    <message>
        <source>Change a window</source>
        <translation>更改窗口</translation>
    </message>
    <message>
        <source>Also allow this client, without asking, for</source>
        <translation>同时允许此客户端，无需再询问，时长</translation>
    </message>
    <message>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <source>MCP: %1 (%2), through %3 (pid %4)</source>
        <translation>MCP：%1（%2），经由 %3（pid %4）</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Remote control server %1</source>
        <translation>远程控制服务器 %1</translation>
    </message>
    <message>
        <source>Show the selector</source>
        <translation>显示选择器</translation>
    </message>
    <message>
        <source>%1 &quot;%2&quot;</source>
        <translation>%1“%2”</translation>
    </message>
    <message>
        <source>%1 in the window &quot;%2&quot; of %3</source>
        <translation>%3 的窗口“%2”中的 %1</translation>
    </message>
    <message numerus="yes">
        <source>(the best of %n matching elements)</source>
        <translation>
            <numerusform>（%n 个匹配元素中最好的一个）</numerusform>
        </translation>
    </message>
    <message>
        <source>The screen has no room beside the target: this window covers part of it. Drag this window aside to see the highlighted element.</source>
        <translation>屏幕上目标旁边没有空间：本窗口遮住了目标的一部分。请把本窗口拖开，以查看高亮的元素。</translation>
    </message>
    <message>
        <source>window %1</source>
        <translation>窗口 %1</translation>
    </message>
    <message>
        <source>High risk: %1</source>
        <translation>高风险：%1</translation>
    </message>
    <message>
        <source>Asked by the owner&apos;s rule %1.</source>
        <translation>由所有者的规则 %1 要求确认。</translation>
    </message>
    <message>
        <source>Asked by the owner&apos;s rule %1 (%2).</source>
        <translation>由所有者的规则 %1 要求确认（%2）。</translation>
    </message>
    <message>
        <source>Change the owner&apos;s rules</source>
        <translation>更改所有者的规则</translation>
    </message>
    <message>
        <source>typing</source>
        <translation>输入文字</translation>
    </message>
    <message>
        <source>clicks and pointer actions</source>
        <translation>点击和指针操作</translation>
    </message>
    <message>
        <source>key presses</source>
        <translation>按键</translation>
    </message>
    <message>
        <source>window changes</source>
        <translation>窗口更改</translation>
    </message>
    <message>
        <source>reading</source>
        <translation>读取</translation>
    </message>
    <message>
        <source>%1 actions</source>
        <translation>%1 操作</translation>
    </message>
    <message>
        <source>Allow once</source>
        <translation>仅允许这一次</translation>
    </message>
    <message>
        <source>Allow %1, high-risk ones too, in %2 for</source>
        <translation>在 %2 中允许%1（包括高风险操作），时长</translation>
    </message>
    <message>
        <source>Allow %1 in %2 for</source>
        <translation>在 %2 中允许%1，时长</translation>
    </message>
    <message>
        <source>Always allow %1 in %2 (adds a rule)</source>
        <translation>始终在 %2 中允许%1（添加一条规则）</translation>
    </message>
    <message>
        <source>Change the owner&apos;s rules: %1</source>
        <translation>更改所有者的规则：%1</translation>
    </message>
    <message>
        <source>This loosens what an agent may do on this desktop. Approve it only if you asked for it.</source>
        <translation>这会放宽代理在此桌面上可做的事。只有在你本人要求时才批准。</translation>
    </message>
</context>
<context>
    <name>App::OnboardingWindow</name>
    <message>
        <source>Set up msgcode Desktop Host</source>
        <translation>授予 msgcode Desktop Host 权限</translation>
    </message>
    <message>
        <source>msgcode Desktop Host needs two permissions to see and operate apps on your desktop for msgcode. msgcode itself never gets them: it asks this host, and you approve every action.</source>
        <translation>msgcode Desktop Host 需要两项权限，才能代 msgcode 查看和操作你桌面上的应用。msgcode 本身永远不会获得这些权限：它只能向本程序提出请求，而每一项操作都由你批准。</translation>
    </message>
    <message>
        <source>Accessibility — AX observe/find/action</source>
        <translation>辅助功能 — AX 观察/查找/操作</translation>
    </message>
    <message>
        <source>Screen capture — Screenshot capture</source>
        <translation>屏幕捕获 — 截图</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>All set: the host can see and operate apps.</source>
        <translation>一切就绪：本程序可以查看和操作应用。</translation>
    </message>
    <message>
        <source>The tray icon turns green once both are granted.</source>
        <translation>两项权限都授予后，托盘图标会变成绿色。</translation>
    </message>
    <message>
        <source>Granted</source>
        <translation>已授权</translation>
    </message>
    <message>
        <source>Not granted</source>
        <translation>未授权</translation>
    </message>
    <message>
        <source>Not known yet</source>
        <translation>暂不确定</translation>
    </message>
</context>
<context>
    <name>App::RulesPage</name>
    <message>
        <source>read</source>
        <translation>读取</translation>
    </message>
    <message>
        <source>type</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>click and pointer</source>
        <translation>点击和指针</translation>
    </message>
    <message>
        <source>keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <source>windows</source>
        <translation>窗口</translation>
    </message>
    <message>
        <source>apps</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>clipboard</source>
        <translation>剪贴板</translation>
    </message>
    <message>
        <source>allow</source>
        <translation>允许</translation>
    </message>
    <message>
        <source>ask a person</source>
        <translation>询问本人</translation>
    </message>
    <message>
        <source>deny</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>the %1</source>
        <translation>%1 类应用</translation>
    </message>
    <message>
        <source>windows &quot;%1&quot;</source>
        <translation>窗口“%1”</translation>
    </message>
    <message>
        <source>high-risk actions</source>
        <translation>高风险操作</translation>
    </message>
    <message>
        <source>every app, every action</source>
        <translation>所有应用、所有操作</translation>
    </message>
    <message>
        <source>Where an agent may act</source>
        <translation>代理可以在哪里操作</translation>
    </message>
    <message>
        <source>Rules are asked in order; the first that matches decides: allow (the phrase or a token suffices), ask a person, or deny. Built-in rules come last. Changes here apply at once.</source>
        <translation>规则按顺序检查，第一条匹配的规则做决定：允许（确认短语或令牌即可）、询问本人或拒绝。内置规则排在最后。这里的更改立即生效。</translation>
    </message>
    <message>
        <source>Trust the rule file as it is</source>
        <translation>信任规则文件的当前内容</translation>
    </message>
    <message>
        <source>Unattended mode: refuse what a rule would ask a person, never wait for one</source>
        <translation>无人值守模式：规则要询问本人的操作一律拒绝，绝不等待</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>决定</translation>
    </message>
    <message>
        <source>Applies to</source>
        <translation>适用于</translation>
    </message>
    <message>
        <source>Remove the selected rule</source>
        <translation>删除所选规则</translation>
    </message>
    <message>
        <source>Allowed for a while</source>
        <translation>限时允许</translation>
    </message>
    <message>
        <source>Actions</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Until</source>
        <translation>截止</translation>
    </message>
    <message>
        <source>Revoke the selected grant</source>
        <translation>撤销所选授权</translation>
    </message>
    <message>
        <source>e.g. no-terminal</source>
        <translation>例如 no-terminal</translation>
    </message>
    <message>
        <source>New rule&apos;s name:</source>
        <translation>新规则的名称：</translation>
    </message>
    <message>
        <source>Any app</source>
        <translation>任何应用</translation>
    </message>
    <message>
        <source>Executable</source>
        <translation>可执行文件</translation>
    </message>
    <message>
        <source>Desktop entry</source>
        <translation>桌面条目</translation>
    </message>
    <message>
        <source>Bundle id</source>
        <translation>Bundle ID</translation>
    </message>
    <message>
        <source>App name</source>
        <translation>应用名称</translation>
    </message>
    <message>
        <source>e.g. xterm</source>
        <translation>例如 xterm</translation>
    </message>
    <message>
        <source>App:</source>
        <translation>应用：</translation>
    </message>
    <message>
        <source>any window; * and ? as wildcards</source>
        <translation>任何窗口；* 和 ? 为通配符</translation>
    </message>
    <message>
        <source>Window title:</source>
        <translation>窗口标题：</translation>
    </message>
    <message>
        <source>Actions (none: all):</source>
        <translation>操作（不选：全部）：</translation>
    </message>
    <message>
        <source>Only high-risk actions (send, delete, pay, overwrite…)</source>
        <translation>仅高风险操作（发送、删除、付款、覆盖…）</translation>
    </message>
    <message>
        <source>Decision:</source>
        <translation>决定：</translation>
    </message>
    <message>
        <source>Add the rule first</source>
        <translation>将规则加在最前</translation>
    </message>
    <message>
        <source>Name the app, or choose &quot;Any app&quot;.</source>
        <translation>请填写应用，或选择“任何应用”。</translation>
    </message>
    <message>
        <source>The rules are kept in memory for this run.</source>
        <translation>本次运行的规则只保存在内存中。</translation>
    </message>
    <message>
        <source>Kept in %1</source>
        <translation>保存在 %1</translation>
    </message>
    <message>
        <source>rule %1 (%2)</source>
        <translation>规则 %1（%2）</translation>
    </message>
    <message>
        <source>a grant</source>
        <translation>一项授权</translation>
    </message>
    <message>
        <source>%1 was changed outside the host. Until you trust it, only its stricter rules apply.</source>
        <translation>%1 在主机之外被修改过。在你信任它之前，只有其中更严格的规则生效。</translation>
    </message>
    <message>
        <source>Left out: %1.</source>
        <translation>未采用：%1。</translation>
    </message>
    <message>
        <source>It cannot be read: %1</source>
        <translation>无法读取：%1</translation>
    </message>
    <message>
        <source>%1, high-risk too</source>
        <translation>%1，包括高风险</translation>
    </message>
</context>
<context>
    <name>App::SettingsDialog</name>
    <message>
        <source>msgcode Desktop Host Settings</source>
        <translation>msgcode Desktop Host 设置</translation>
    </message>
    <message>
        <source>Security</source>
        <translation>安全</translation>
    </message>
    <message>
        <source>$WORKSPACE_ROOT at start</source>
        <translation>启动时的 $WORKSPACE_ROOT</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <source>Workspace root:</source>
        <translation>工作区根目录：</translation>
    </message>
    <message>
        <source>Ask a person (recommended)</source>
        <translation>询问用户（推荐）</translation>
    </message>
    <message>
        <source>Approve automatically</source>
        <translation>自动批准</translation>
    </message>
    <message>
        <source>Deny everything</source>
        <translation>全部拒绝</translation>
    </message>
    <message>
        <source>Confirmation policy:</source>
        <translation>确认策略：</translation>
    </message>
    <message>
        <source>Warning: with &quot;Approve automatically&quot; every click, typed text and hotkey a client asks for is approved without asking you. Use it only on a headless server or in tests.</source>
        <translation>警告：选择“自动批准”后，客户端请求的每一次点击、文本输入和快捷键都会不经询问直接批准。请仅在无界面服务器上或测试中使用。</translation>
    </message>
    <message>
        <source>Require a confirmation token (refuse the CONFIRM phrase)</source>
        <translation>要求确认令牌（不接受 CONFIRM 短语）</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <source>Longest token lifetime:</source>
        <translation>令牌最长有效期：</translation>
    </message>
    <message>
        <source>Time to approve:</source>
        <translation>批准时限：</translation>
    </message>
    <message>
        <source>Add executable…</source>
        <translation>添加可执行文件…</translation>
    </message>
    <message>
        <source>Applies to new connections; connected clients keep the identity they were admitted with.</source>
        <translation>仅对新连接生效；已连接的客户端保留其接入时的身份。</translation>
    </message>
    <message>
        <source>Allowed callers:</source>
        <translation>允许的调用方：</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>证据</translation>
    </message>
    <message>
        <source>Keep typed text in request.json (otherwise only its length and SHA-256)</source>
        <translation>在 request.json 中保留输入的文本（否则只保留其长度和 SHA-256）</translation>
    </message>
    <message>
        <source>Screenshot PNG compression (0 fastest, 9 smallest):</source>
        <translation>截图 PNG 压缩级别（0 最快，9 最小）：</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>Socket:</source>
        <translation>套接字：</translation>
    </message>
    <message>
        <source>Control</source>
        <translation>Control 键</translation>
    </message>
    <message>
        <source>Super (the Windows key)</source>
        <translation>Super 键（即 Windows 键）</translation>
    </message>
    <message>
        <source>The &quot;cmd&quot; key presses:</source>
        <translation>“cmd”键对应：</translation>
    </message>
    <message>
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>English</source>
        <translation>英语（English）</translation>
    </message>
    <message>
        <source>Simplified Chinese (简体中文)</source>
        <translation>简体中文</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>语言：</translation>
    </message>
    <message>
        <source>The language applies after a restart of the host; the other settings apply when saved.</source>
        <translation>语言在主机重新启动后生效；其他设置在保存后立即生效。</translation>
    </message>
    <message>
        <source>The settings could not be written.</source>
        <translation>无法写入设置。</translation>
    </message>
    <message>
        <source>Saved and applied. A new language shows after a restart.</source>
        <translation>已保存并应用。新的语言将在重新启动后显示。</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>未保存：%1</translation>
    </message>
    <message>
        <source>Workspace root</source>
        <translation>工作区根目录</translation>
    </message>
    <message>
        <source>Allowed caller</source>
        <translation>允许的调用方</translation>
    </message>
    <message>
        <source>The same as above</source>
        <translation>与上面相同</translation>
    </message>
    <message>
        <source>Ask a person, who may allow the client for some minutes</source>
        <translation>询问用户（可允许该客户端若干分钟）</translation>
    </message>
    <message>
        <source>For requests of the MCP front door (msgcode-desktop-mcp, which msgcode starts for each tool call).</source>
        <translation>用于 MCP 前门（msgcode-desktop-mcp，msgcode 每次调用工具时启动）的请求。</translation>
    </message>
    <message>
        <source>MCP door policy:</source>
        <translation>MCP 前门策略：</translation>
    </message>
    <message>
        <source>Remote control</source>
        <translation>远程控制</translation>
    </message>
    <message>
        <source>Off: no control server</source>
        <translation>关闭：不连接控制服务器</translation>
    </message>
    <message>
        <source>Control server:</source>
        <translation>控制服务器：</translation>
    </message>
    <message>
        <source>Port:</source>
        <translation>端口：</translation>
    </message>
    <message>
        <source>Use TLS</source>
        <translation>使用 TLS</translation>
    </message>
    <message>
        <source>Optional: the certificate&apos;s SHA-256, to trust only it</source>
        <translation>可选：证书的 SHA-256，只信任该证书</translation>
    </message>
    <message>
        <source>Pinned certificate:</source>
        <translation>固定证书：</translation>
    </message>
    <message>
        <source>Its actions:</source>
        <translation>它的操作：</translation>
    </message>
    <message>
        <source>Forget the device token</source>
        <translation>忘记设备令牌</translation>
    </message>
    <message>
        <source>The host dials the server; its device token is kept in your keyring, never in a file. The first connection asks for the bind code the server shows.</source>
        <translation>由本程序主动连接服务器；设备令牌保存在你的密钥环中，绝不写入文件。首次连接时会要求输入服务器显示的绑定码。</translation>
    </message>
    <message>
        <source>Start with my session</source>
        <translation>随会话启动</translation>
    </message>
    <message>
        <source>Your own autostart entry (~/.config/autostart), which overrides the system&apos;s.</source>
        <translation>你自己的自动启动条目（~/.config/autostart），它会覆盖系统的条目。</translation>
    </message>
    <message>
        <source>Saved, but the autostart entry %1 could not be written.</source>
        <translation>已保存，但无法写入自动启动条目 %1。</translation>
    </message>
    <message>
        <source>Keep full trees for side effects (slower; lets the selector lab decide every selector later)</source>
        <translation>为有副作用的操作保留完整的树（较慢；之后选择器实验室可以判定每个选择器）</translation>
    </message>
    <message>
        <source>Stop the automation</source>
        <translation>停止自动化</translation>
    </message>
    <message>
        <source>Wait until I am quiet</source>
        <translation>等我停下来再继续</translation>
    </message>
    <message>
        <source>Carry on (off)</source>
        <translation>继续执行（关闭）</translation>
    </message>
    <message>
        <source>When I use the keyboard or mouse while it types or clicks:</source>
        <translation>当它输入或点击时我使用了键盘或鼠标：</translation>
    </message>
    <message>
        <source>Quiet for:</source>
        <translation>停止操作的时长：</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>After an event reader (msgcode) disconnects, keep watching and recording what it asked for this long, so that it misses nothing when it comes back.</source>
        <translation>事件读取方（msgcode）断开后，在这段时间内继续监视并记录它订阅的内容，使它重新连接时不会遗漏任何事件。</translation>
    </message>
    <message>
        <source>Keep events for a disconnected reader:</source>
        <translation>为已断开的读取方保留事件：</translation>
    </message>
    <message>
        <source>Any program of your user may connect. One executable path per line limits it to those; on macOS, team:TEAMID admits every app its developer signed.</source>
        <translation>你的用户下的任何程序都可以连接。每行填写一个可执行文件路径，即可只允许这些程序连接；在 macOS 上，team:TEAMID 允许该开发者签名的所有应用。</translation>
    </message>
    <message>
        <source>Bring my app back to the front after an action (macOS)</source>
        <translation>操作结束后把我的应用放回最前面（macOS）</translation>
    </message>
    <message>
        <source>An action on an app behind yours brings that app forward; afterwards the app you were using comes back to the front.</source>
        <translation>对你后面的应用执行操作时会把该应用调到前面；操作结束后，你正在使用的应用会回到最前面。</translation>
    </message>
    <message>
        <source>Vision</source>
        <translation>视觉</translation>
    </message>
    <message>
        <source>Off: e.g. http://127.0.0.1:8080/v1</source>
        <translation>关闭：例如 http://127.0.0.1:8080/v1</translation>
    </message>
    <message>
        <source>Grounding endpoint:</source>
        <translation>定位端点：</translation>
    </message>
    <message>
        <source>The model&apos;s name, as the endpoint knows it</source>
        <translation>端点所知的模型名称</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>Timeout:</source>
        <translation>超时：</translation>
    </message>
    <message>
        <source>An OpenAI-compatible server with a vision model that you run yourself. Only when it is set, and only to find what text and the accessibility tree cannot, the host sends it a screenshot.</source>
        <translation>由你自己运行的、带视觉模型的 OpenAI 兼容服务器。只有设置了它，并且只在文字和无障碍树都找不到目标时，主机才会把截图发送给它。</translation>
    </message>
</context>
<context>
    <name>App::TrayController</name>
    <message>
        <source>Onboarding…</source>
        <translation>权限向导…</translation>
    </message>
    <message>
        <source>Stop all automation</source>
        <translation>停止所有自动化</translation>
    </message>
    <message>
        <source>Resume automation</source>
        <translation>恢复自动化</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>msgcode Desktop Host</source>
        <translation>msgcode Desktop Host</translation>
    </message>
    <message>
        <source>This desktop has no system tray, so the host shows its state here.</source>
        <translation>此桌面没有系统托盘，因此本程序在这里显示其状态。</translation>
    </message>
    <message>
        <source>Confirmation policy</source>
        <translation>确认策略</translation>
    </message>
    <message>
        <source>Ask me (recommended)</source>
        <translation>询问我（推荐）</translation>
    </message>
    <message>
        <source>Approve automatically (unsafe)</source>
        <translation>自动批准（不安全）</translation>
    </message>
    <message>
        <source>Deny everything</source>
        <translation>全部拒绝</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <source>Enter the remote control&apos;s bind code…</source>
        <translation>输入远程控制的绑定码…</translation>
    </message>
    <message>
        <source>The device token was removed from the keyring.</source>
        <translation>设备令牌已从密钥环中删除。</translation>
    </message>
    <message>
        <source>No device token was stored.</source>
        <translation>没有保存任何设备令牌。</translation>
    </message>
    <message>
        <source>Remote control needs a bind code</source>
        <translation>远程控制需要绑定码</translation>
    </message>
    <message>
        <source>Remote control</source>
        <translation>远程控制</translation>
    </message>
    <message>
        <source>The bind code the control server %1 shows:</source>
        <translation>控制服务器 %1 显示的绑定码：</translation>
    </message>
    <message>
        <source>Inspector…</source>
        <translation>检查器…</translation>
    </message>
    <message>
        <source>Evidence…</source>
        <translation>证据…</translation>
    </message>
    <message>
        <source>You used the keyboard or mouse, so the host stopped the automation that was typing or clicking.</source>
        <translation>你使用了键盘或鼠标，因此本程序停止了正在输入或点击的自动化。</translation>
    </message>
    <message numerus="yes">
        <source>You used the keyboard or mouse, so the automation waited for you (%n time(s)).</source>
        <translation>
            <numerusform>你使用了键盘或鼠标，因此自动化等待了你（%n 次）。</numerusform>
        </translation>
    </message>
    <message>
        <source>The host yielded to you</source>
        <translation>本程序已让位于你</translation>
    </message>
    <message>
        <source>Unattended mode</source>
        <translation>无人值守模式</translation>
    </message>
</context>
<context>
    <name>Ctl</name>
    <message>
        <source>no msgcode-desktop-host is serving %1 (%2); start it with: msgcode-desktop-host --headless</source>
        <translation>没有 msgcode-desktop-host 在 %1 上提供服务（%2）；请用以下命令启动：msgcode-desktop-host --headless</translation>
    </message>
    <message>
        <source>error: %1: %2</source>
        <translation>错误：%1：%2</translation>
    </message>
    <message>
        <source>error: the host sent something that is not a JSON-RPC answer</source>
        <translation>错误：主机发来的内容不是 JSON-RPC 应答</translation>
    </message>
    <message>
        <source>error: no answer from the host in time</source>
        <translation>错误：主机未能及时应答</translation>
    </message>
    <message>
        <source>error: the host closed the connection without answering</source>
        <translation>错误：主机未作应答就关闭了连接</translation>
    </message>
    <message>
        <source>details: %1</source>
        <translation>详情：%1</translation>
    </message>
    <message>
        <source>(retryable)</source>
        <translation>（可重试）</translation>
    </message>
    <message>
        <source>msgcode-desktop-host %1 on %2 (%3)</source>
        <translation>msgcode-desktop-host %1，运行于 %2（%3）</translation>
    </message>
    <message>
        <source>  accessibility:    %1</source>
        <translation>  辅助功能：  %1</translation>
    </message>
    <message>
        <source>  screen recording: %1</source>
        <translation>  屏幕录制：  %1</translation>
    </message>
    <message>
        <source>  bridge:           schema %1, %2, %3 queued</source>
        <translation>  桥接：      schema 版本 %1，%2，%3 个排队中</translation>
    </message>
    <message>
        <source>busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>  confirmation:     policy %1%2</source>
        <translation>  确认：      策略 %1%2</translation>
    </message>
    <message>
        <source>, PAUSED (msgcode-desktopctl resume)</source>
        <translation>，已暂停（msgcode-desktopctl resume）</translation>
    </message>
    <message>
        <source>  socket:           %1</source>
        <translation>  套接字：    %1</translation>
    </message>
    <message>
        <source>  caller:           pid %1, digest %2</source>
        <translation>  调用方：    进程 %1，摘要 %2</translation>
    </message>
    <message>
        <source>Healthy: yes</source>
        <translation>健康：是</translation>
    </message>
    <message>
        <source>Healthy: no</source>
        <translation>健康：否</translation>
    </message>
    <message>
        <source>[ok]     </source>
        <translation>[正常]</translation>
    </message>
    <message>
        <source>[warning]</source>
        <translation>[警告]</translation>
    </message>
    <message>
        <source>[error]  </source>
        <translation>[错误]</translation>
    </message>
    <message>
        <source>%1 checks: %2 ok, %3 warnings, %4 errors</source>
        <translation>共 %1 项检查：%2 项正常，%3 项警告，%4 项错误</translation>
    </message>
    <message numerus="yes">
        <source>stopped: %n execution(s) aborted</source>
        <translation>
            <numerusform>已停止：中止了 %n 个执行</numerusform>
        </translation>
    </message>
    <message>
        <source>side effects are paused until a person resumes the host (msgcode-desktopctl resume, or the tray)</source>
        <translation>有副作用的操作已暂停，直到有人恢复主机（msgcode-desktopctl resume，或通过托盘菜单）</translation>
    </message>
    <message>
        <source>resumed: side effects are allowed again</source>
        <translation>已恢复：重新允许有副作用的操作</translation>
    </message>
    <message>
        <source>the host was not paused</source>
        <translation>主机并未暂停</translation>
    </message>
    <message>
        <source>error: cannot read standard input</source>
        <translation>错误：无法读取标准输入</translation>
    </message>
    <message>
        <source>error: cannot read %1: %2</source>
        <translation>错误：无法读取 %1：%2</translation>
    </message>
    <message>
        <source>error: PARAMS must be a JSON object (%1)</source>
        <translation>错误：PARAMS 必须是 JSON 对象（%1）</translation>
    </message>
    <message>
        <source>try: msgcode-desktopctl --help</source>
        <translation>请尝试：msgcode-desktopctl --help</translation>
    </message>
    <message>
        <source>The host&apos;s socket (default: $MSGCODE_DESKTOP_SOCKET or the standard path).</source>
        <translation>主机的套接字（默认：$MSGCODE_DESKTOP_SOCKET 或标准路径）。</translation>
    </message>
    <message>
        <source>path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>Print the raw JSON-RPC response.</source>
        <translation>输出原始的 JSON-RPC 应答。</translation>
    </message>
    <message>
        <source>meta.timeoutMs (default 60000).</source>
        <translation>meta.timeoutMs（默认 60000）。</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>meta.workspacePath (default: the current directory).</source>
        <translation>meta.workspacePath（默认：当前目录）。</translation>
    </message>
    <message>
        <source>dir</source>
        <translation>目录</translation>
    </message>
    <message>
        <source>error: --timeout takes 1 to 600000 ms</source>
        <translation>错误：--timeout 的取值范围为 1 到 600000 毫秒</translation>
    </message>
    <message>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>rpc: the params as a JSON object.</source>
        <translation>rpc：参数，一个 JSON 对象。</translation>
    </message>
    <message>
        <source>json</source>
        <translation>JSON 文本</translation>
    </message>
    <message>
        <source>session: exit after this long without a request (default 60000).</source>
        <translation>session：这么久没有请求就退出（默认 60000）。</translation>
    </message>
    <message>
        <source>usage: msgcode-desktopctl rpc WORKSPACE --method M --params-json J</source>
        <translation>用法：msgcode-desktopctl rpc WORKSPACE --method M --params-json J</translation>
    </message>
    <message>
        <source>usage: msgcode-desktopctl session WORKSPACE [--idle-ms N]</source>
        <translation>用法：msgcode-desktopctl session WORKSPACE [--idle-ms N]</translation>
    </message>
    <message>
        <source>usage: msgcode-desktopctl remote connect --host H --port P [--tls] [--fingerprint SHA256] [--bind-code C]</source>
        <translation>用法：msgcode-desktopctl remote connect --host H --port P [--tls] [--fingerprint SHA256] [--bind-code C]</translation>
    </message>
    <message>
        <source>the device token was removed from the keyring; the next connection needs a bind code</source>
        <translation>设备令牌已从密钥环中删除；下次连接需要绑定码</translation>
    </message>
    <message>
        <source>no device token was stored</source>
        <translation>没有保存任何设备令牌</translation>
    </message>
    <message>
        <source>usage: msgcode-desktopctl remote connect|status|disconnect|forget</source>
        <translation>用法：msgcode-desktopctl remote connect|status|disconnect|forget</translation>
    </message>
    <message>
        <source>remote: %1 (%2)</source>
        <translation>远程：%1（%2）</translation>
    </message>
    <message>
        <source>remote: %1</source>
        <translation>远程：%1</translation>
    </message>
    <message>
        <source>last error: %1</source>
        <translation>最近的错误：%1</translation>
    </message>
    <message>
        <source>device: %1</source>
        <translation>设备：%1</translation>
    </message>
    <message>
        <source>confirmations: %1</source>
        <translation>确认：%1</translation>
    </message>
    <message>
        <source>remote connect: the control server.</source>
        <translation>remote connect：控制服务器。</translation>
    </message>
    <message>
        <source>host</source>
        <translation>主机名</translation>
    </message>
    <message>
        <source>remote connect: its TCP port.</source>
        <translation>remote connect：它的 TCP 端口。</translation>
    </message>
    <message>
        <source>port</source>
        <translation>端口</translation>
    </message>
    <message>
        <source>remote connect: use TLS.</source>
        <translation>remote connect：使用 TLS。</translation>
    </message>
    <message>
        <source>remote connect: trust only this certificate (SHA-256, hex).</source>
        <translation>remote connect：只信任此证书（SHA-256，十六进制）。</translation>
    </message>
    <message>
        <source>sha256</source>
        <translation>SHA-256 值</translation>
    </message>
    <message>
        <source>remote connect: the server&apos;s one-time bind code.</source>
        <translation>remote connect：服务器的一次性绑定码。</translation>
    </message>
    <message>
        <source>code</source>
        <translation>绑定码</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <source>unanswered</source>
        <translation>未应答</translation>
    </message>
    <message>
        <source>error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n execution(s) in %1</source>
        <translation>
            <numerusform>%1 中有 %n 个执行</numerusform>
        </translation>
    </message>
    <message>
        <source>skipped %1 (%2)</source>
        <translation>已跳过 %1（%2）</translation>
    </message>
    <message>
        <source>execution %1: %2, %3</source>
        <translation>执行 %1：%2，%3</translation>
    </message>
    <message>
        <source>received %1, %2 ms</source>
        <translation>收到于 %1，耗时 %2 毫秒</translation>
    </message>
    <message>
        <source>directory %1</source>
        <translation>目录 %1</translation>
    </message>
    <message>
        <source>files: %1</source>
        <translation>文件：%1</translation>
    </message>
    <message>
        <source>damaged: %1: %2</source>
        <translation>已损坏：%1：%2</translation>
    </message>
    <message>
        <source>rpc: the method, e.g. desktop.find; evidence list: only this method.</source>
        <translation>rpc：方法名，例如 desktop.find；evidence list：只列出此方法。</translation>
    </message>
    <message>
        <source>evidence list: only executions that answered an error or never answered.</source>
        <translation>evidence list：只列出应答了错误或从未应答的执行。</translation>
    </message>
    <message numerus="yes">
        <source>%n execution(s) exported to %1</source>
        <translation>
            <numerusform>已将 %n 个执行导出到 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>file</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>usage: msgcode-desktopctl [--workspace DIR] [--json] evidence list [--method M] [--errors] | evidence show EXECUTION_ID | evidence export --out FILE.zip [EXECUTION_ID...]</source>
        <translation>用法：msgcode-desktopctl [--workspace DIR] [--json] evidence list [--method M] [--errors] | evidence show EXECUTION_ID | evidence export --out FILE.zip [EXECUTION_ID...]</translation>
    </message>
    <message>
        <source>error: %1: no msgcode-desktop-host is serving %2 (%3)</source>
        <translation>错误：%1：没有 msgcode-desktop-host 在 %2 上提供服务（%3）</translation>
    </message>
    <message>
        <source>listening from cursor %1 (epoch %2); Ctrl+C ends</source>
        <translation>从游标 %1 开始监听（纪元 %2）；按 Ctrl+C 结束</translation>
    </message>
    <message>
        <source>the host closed the connection</source>
        <translation>主机关闭了连接</translation>
    </message>
    <message>
        <source>events: only this app&apos;s (name, executable or pid).</source>
        <translation>events：只看此应用的事件（名称、可执行文件或进程号）。</translation>
    </message>
    <message>
        <source>app</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Displays help on commandline options.</source>
        <translation>显示命令行选项的帮助。</translation>
    </message>
    <message>
        <source>Displays help, including generic Qt options.</source>
        <translation>显示帮助，包括通用的 Qt 选项。</translation>
    </message>
    <message>
        <source>Displays version information.</source>
        <translation>显示版本信息。</translation>
    </message>
    <message>
        <source>talks to a running msgcode-desktop-host</source>
        <translation>与正在运行的 msgcode-desktop-host 通信</translation>
    </message>
    <message>
        <source>events: only these kinds, comma-separated (element events only when named).</source>
        <translation>events：只看这些种类的事件，以逗号分隔（元素事件仅在列出时才有）。</translation>
    </message>
    <message>
        <source>list</source>
        <translation>列表</translation>
    </message>
    <message>
        <source>events: element events only of an element this selector (JSON: role and title) matches, or under it.</source>
        <translation>events：只看此选择器（JSON：角色和标题）匹配的元素及其下级元素的元素事件。</translation>
    </message>
    <message>
        <source>error: --selector takes a JSON object</source>
        <translation>错误：--selector 需要一个 JSON 对象</translation>
    </message>
    <message>
        <source>evidence export: the zip to write; selftest: the folder for the report.</source>
        <translation>evidence export：要写入的 zip 文件；selftest：存放报告的文件夹。</translation>
    </message>
    <message>
        <source>selftest: the app description to run (default: this platform&apos;s).</source>
        <translation>selftest：要运行的应用描述（默认：本平台的描述）。</translation>
    </message>
    <message>
        <source>selftest: keep the scratch folder with the apps&apos; documents.</source>
        <translation>selftest：保留存放应用文档的临时文件夹。</translation>
    </message>
    <message>
        <source>usage: msgcode-desktopctl selftest [--apps FILE] [--out DIR] [--keep-scratch] [--json]</source>
        <translation>用法：msgcode-desktopctl selftest [--apps FILE] [--out DIR] [--keep-scratch] [--json]</translation>
    </message>
    <message>
        <source>error: %1 must be a JSON object (%2)</source>
        <translation>错误：%1 必须是 JSON 对象（%2）</translation>
    </message>
    <message>
        <source>error: POSITION is a whole number from 0</source>
        <translation>错误：POSITION 必须是从 0 起的整数</translation>
    </message>
    <message>
        <source>usage: msgcode-desktopctl policy list | set RULE_JSON [POSITION] | remove NAME | test SUBJECT_JSON | revoke GRANT | unattended on|off | trust</source>
        <translation>用法：msgcode-desktopctl policy list | set RULE_JSON [POSITION] | remove NAME | test SUBJECT_JSON | revoke GRANT | unattended on|off | trust</translation>
    </message>
    <message>
        <source>%1, by the rule %2</source>
        <translation>%1，由规则 %2 决定</translation>
    </message>
    <message>
        <source>why: %1</source>
        <translation>原因：%1</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>已更改</translation>
    </message>
    <message>
        <source>nothing to change</source>
        <translation>无需更改</translation>
    </message>
    <message>
        <source>mode: unattended (every ask is refused)</source>
        <translation>模式：无人值守（所有询问都被拒绝）</translation>
    </message>
    <message>
        <source>mode: attended</source>
        <translation>模式：有人值守</translation>
    </message>
    <message>
        <source>file: %1</source>
        <translation>文件：%1</translation>
    </message>
    <message>
        <source>file: %1, changed outside the host: only its tightening changes apply until a person trusts it (Settings, or msgcode-desktopctl policy trust)</source>
        <translation>文件：%1，在主机之外被修改：在有人信任它之前只有收紧的更改生效（设置，或 msgcode-desktopctl policy trust）</translation>
    </message>
    <message>
        <source>rules, in the order they are asked:</source>
        <translation>规则，按检查顺序：</translation>
    </message>
    <message>
        <source>window &quot;%1&quot;</source>
        <translation>窗口“%1”</translation>
    </message>
    <message>
        <source>high-risk</source>
        <translation>高风险</translation>
    </message>
    <message>
        <source>every action</source>
        <translation>所有操作</translation>
    </message>
    <message>
        <source>grants:</source>
        <translation>授权：</translation>
    </message>
    <message>
        <source>usage: msgcode-desktopctl [options] health | doctor | stop | resume | policy ... | call METHOD [PARAMS_JSON | @FILE | -]</source>
        <translation>用法：msgcode-desktopctl [选项] health | doctor | stop | resume | policy ... | call METHOD [PARAMS_JSON | @FILE | -]</translation>
    </message>
    <message>
        <source>Talks to a running msgcode-desktop-host.

Commands:
  health                          host version, permissions, queue
  doctor                          every check, with what to fix
  stop                            emergency stop: abort everything, pause side effects
  resume                          resume after a stop (asks the host&apos;s confirmation policy)
  policy list | set RULE_JSON [POSITION] | remove NAME | test SUBJECT_JSON
  policy revoke GRANT | unattended on|off | trust
                                  the owner&apos;s rules (docs/protocol.md, Policy); a change
                                  that loosens them waits for a person in the host&apos;s dialog
  call METHOD [PARAMS | @FILE | -] any bridge method; meta is filled in
  remote connect --host H --port P [--tls] [--fingerprint SHA256] [--bind-code C]
  remote status | disconnect | forget   the remote agent (docs/remote.md)
  evidence list [--method M] [--errors] | evidence show ID   the workspace&apos;s evidence
  evidence export --out FILE.zip [ID...]   as a zip with a manifest of hashes
  events [--app NAME] [--kinds LIST] [--selector JSON]
                                  the host&apos;s event stream, live (docs/protocol.md)
  selftest [--apps FILE] [--out DIR] [--keep-scratch]
                                  drives a text editor, a calculator and a file
                                  manager through every method, checks each effect in
                                  the app, writes report.json and evidence.zip

msgcode&apos;s original commands (their own exit codes: 0 a result, 2 an error answer,
10 the host cannot be reached):
  rpc WORKSPACE --method M --params-json J   one request; the JSON-RPC answer on stdout
  session WORKSPACE [--idle-ms N]            NDJSON requests on stdin, one envelope
                                             {id, exitCode, stdout, stderr} per line

Exit codes: 0 ok, 1 the host answered an error, 2 usage, 3 host not running,
4 no or malformed answer, 5 doctor found the host unhealthy.</source>
        <translation>与正在运行的 msgcode-desktop-host 通信。

命令：
  health                          主机版本、权限、队列
  doctor                          逐项检查，并说明如何修复
  stop                            紧急停止：中止一切，暂停副作用
  resume                          停止后恢复（按主机的确认策略询问）
  policy list | set RULE_JSON [POSITION] | remove NAME | test SUBJECT_JSON
  policy revoke GRANT | unattended on|off | trust
                                  所有者的规则（docs/protocol.md，Policy）；放宽规则的
                                  更改要等主机对话框里有人批准
  call METHOD [PARAMS | @FILE | -] 任意桥接方法；自动填写 meta
  remote connect --host H --port P [--tls] [--fingerprint SHA256] [--bind-code C]
  remote status | disconnect | forget   远程代理（docs/remote.md）
  evidence list [--method M] [--errors] | evidence show ID   工作区中的证据
  evidence export --out FILE.zip [ID...]   导出为带哈希清单的 zip
  events [--app NAME] [--kinds LIST] [--selector JSON]
                                  主机的事件流，实时（docs/protocol.md）
  selftest [--apps FILE] [--out DIR] [--keep-scratch]
                                  用每个方法操作文本编辑器、计算器和文件
                                  管理器，在应用中逐项检查效果，写出
                                  report.json 和 evidence.zip

msgcode 原有的命令（退出码自成一套：0 有结果，2 错误应答，
10 无法连接主机）：
  rpc WORKSPACE --method M --params-json J   一次请求；JSON-RPC 应答写到 stdout
  session WORKSPACE [--idle-ms N]            从 stdin 读取 NDJSON 请求，每行回一个
                                             {id, exitCode, stdout, stderr} 信封

退出码：0 成功，1 主机应答了错误，2 用法错误，3 主机未运行，
4 无应答或应答格式错误，5 doctor 发现主机不健康。</translation>
    </message>
    <message>
        <source>health, doctor, stop, resume, policy or call</source>
        <translation>health、doctor、stop、resume、policy 或 call</translation>
    </message>
</context>
<context>
    <name>Door</name>
    <message>
        <source>start msgcode-desktop-host (the tray app, or --headless)</source>
        <translation>请启动 msgcode-desktop-host（托盘程序，或 --headless）</translation>
    </message>
    <message>
        <source>grant the permissions the host&apos;s tray icon asks for</source>
        <translation>请授予主机托盘图标所要求的权限</translation>
    </message>
    <message>
        <source>grant Accessibility to msgcode-desktop-host (its tray icon leads you there), not to msgcode</source>
        <translation>请把“辅助功能”权限授予 msgcode-desktop-host（它的托盘图标会带你前往），而不是 msgcode</translation>
    </message>
    <message>
        <source>grant Screen Recording to msgcode-desktop-host (its tray icon leads you there), not to msgcode</source>
        <translation>请把“屏幕录制”权限授予 msgcode-desktop-host（它的托盘图标会带你前往），而不是 msgcode</translation>
    </message>
    <message>
        <source>Usage: msgcode-desktop-mcp COMMAND

The MCP front door of msgcode-desktop-host, for msgcode (MSGCODE_GHOST_PATH).

  mcp      serve MCP on stdin/stdout; the workspace is the working directory
  status   the host connection and permissions; &quot;Status: Ready&quot; when usable
  doctor   one line per check, each failure followed by a Fix: line
  version  the version

The host&apos;s socket: $MSGCODE_DESKTOP_SOCKET, else %1</source>
        <translation>用法：msgcode-desktop-mcp 命令

msgcode-desktop-host 的 MCP 入口，供 msgcode 使用（MSGCODE_GHOST_PATH）。

  mcp      在标准输入/输出上提供 MCP；工作目录即工作区
  status   主机连接与权限；可用时输出 &quot;Status: Ready&quot;
  doctor   每项检查一行，每个失败项后跟一行 Fix:
  version  版本

主机的套接字：$MSGCODE_DESKTOP_SOCKET，否则为 %1</translation>
    </message>
</context>
<context>
    <name>Evidence</name>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>Received</source>
        <translation>接收时间</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>Caller</source>
        <translation>调用方</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Trace</source>
        <translation>执行轨迹</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <source>The host stopped before this execution answered: trace.jsonl shows how far it got.</source>
        <translation>主机在此次执行应答之前停止：trace.jsonl 记录了执行进行到哪一步。</translation>
    </message>
</context>
<context>
    <name>EvidenceViewer::EvidenceWindow</name>
    <message>
        <source>Evidence</source>
        <translation>证据</translation>
    </message>
    <message>
        <source>Search ids, methods, outcomes, requests and responses</source>
        <translation>搜索 ID、方法、结果、请求和应答</translation>
    </message>
    <message>
        <source>All outcomes</source>
        <translation>全部结果</translation>
    </message>
    <message>
        <source>Succeeded</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新读取</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>At (ms)</source>
        <translation>时刻（毫秒）</translation>
    </message>
    <message>
        <source>Took (ms)</source>
        <translation>用时（毫秒）</translation>
    </message>
    <message>
        <source>OK</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Request</source>
        <translation>请求</translation>
    </message>
    <message>
        <source>Response</source>
        <translation>应答</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>环境</translation>
    </message>
    <message>
        <source>Screenshots</source>
        <translation>截图</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Frame</source>
        <translation>框架</translation>
    </message>
    <message>
        <source>Tree</source>
        <translation>树</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>排名</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>得分</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Candidates</source>
        <translation>候选</translation>
    </message>
    <message>
        <source>A selector, run against the recorded tree of every execution in view:</source>
        <translation>一个选择器，将在列表中每个执行所记录的树上运行：</translation>
    </message>
    <message>
        <source>Run against every tree</source>
        <translation>在每棵树上运行</translation>
    </message>
    <message>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>方法</translation>
    </message>
    <message>
        <source>Matches</source>
        <translation>匹配数</translation>
    </message>
    <message>
        <source>Winner</source>
        <translation>胜出者</translation>
    </message>
    <message>
        <source>Selector lab</source>
        <translation>选择器实验室</translation>
    </message>
    <message numerus="yes">
        <source>%n execution(s)</source>
        <translation>
            <numerusform>%n 个执行</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>All methods</source>
        <translation>全部方法</translation>
    </message>
    <message>
        <source>Not shown, damaged or not evidence (links are never followed): %1</source>
        <translation>未显示：已损坏或不是证据（从不跟随链接）：%1</translation>
    </message>
    <message>
        <source>This execution cannot be read: %1</source>
        <translation>无法读取此执行：%1</translation>
    </message>
    <message>
        <source>Interrupted: the host stopped before this execution answered (the next host marked it).</source>
        <translation>已中断：主机在此执行应答前停止（由下一次启动的主机标记）。</translation>
    </message>
    <message>
        <source>Unanswered: the trace has no answer.</source>
        <translation>未应答：跟踪记录中没有应答。</translation>
    </message>
    <message>
        <source>Damaged: %1: %2</source>
        <translation>已损坏：%1：%2</translation>
    </message>
    <message>
        <source>Replay this request</source>
        <translation>重放此请求</translation>
    </message>
    <message>
        <source>Sends the recorded request again, as you, with fresh meta; your click is the approval.</source>
        <translation>以你的身份、用新的 meta 再次发送记录的请求；你的点击即是批准。</translation>
    </message>
    <message>
        <source>Recorded</source>
        <translation>记录的</translation>
    </message>
    <message>
        <source>Replayed</source>
        <translation>重放的</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>重放</translation>
    </message>
    <message>
        <source>This typeText cannot be replayed: its text was not kept (only its length and SHA-256 are in the evidence).</source>
        <translation>此 typeText 无法重放：其文本没有保留（证据中只有长度和 SHA-256）。</translation>
    </message>
    <message>
        <source>%1 running…</source>
        <translation>%1 正在运行…</translation>
    </message>
    <message>
        <source>Element</source>
        <translation>元素</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>The executions in view as a zip with a manifest of hashes</source>
        <translation>将列表中的执行导出为带哈希清单的 zip</translation>
    </message>
    <message>
        <source>Export evidence</source>
        <translation>导出证据</translation>
    </message>
    <message>
        <source>Zip files (*.zip)</source>
        <translation>Zip 文件 (*.zip)</translation>
    </message>
    <message numerus="yes">
        <source>%n execution(s) exported to %1</source>
        <translation>
            <numerusform>已将 %n 个执行导出到 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Not exported: %1</source>
        <translation>未导出：%1</translation>
    </message>
    <message>
        <source>Replay this request?</source>
        <translation>重放此请求？</translation>
    </message>
    <message>
        <source>%1 will be sent again, as you, with these params:</source>
        <translation>将以你的身份再次发送 %1，参数如下：</translation>
    </message>
    <message>
        <source>Before and after, side by side</source>
        <translation>之前与之后，并排显示</translation>
    </message>
    <message>
        <source>Before and after, with a slider</source>
        <translation>之前与之后，用滑块对比</translation>
    </message>
    <message>
        <source>Left of the line: before. Right of it: after.</source>
        <translation>线的左侧：之前。右侧：之后。</translation>
    </message>
    <message>
        <source>What changed since the one before</source>
        <translation>与上一次相比的变化</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>The slider needs a before and an after screenshot.</source>
        <translation>滑块需要一张之前和一张之后的截图。</translation>
    </message>
</context>
<context>
    <name>EvidenceViewer::IndexModel</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>方法</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>Execution</source>
        <translation>执行</translation>
    </message>
</context>
<context>
    <name>EvidenceViewer::ReplayController</name>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Effect</source>
        <translation>效果</translation>
    </message>
    <message>
        <source>Element</source>
        <translation>元素</translation>
    </message>
    <message>
        <source>Verification</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>Evidence or message</source>
        <translation>证据或消息</translation>
    </message>
    <message>
        <source>Replayed %1: a new execution, %2.</source>
        <translation>已重放 %1：新的执行 %2。</translation>
    </message>
    <message>
        <source>Replayed %1: %2</source>
        <translation>已重放 %1：%2</translation>
    </message>
    <message>
        <source>No tree to compare: the replay did not run.</source>
        <translation>没有可比较的树：重放没有运行。</translation>
    </message>
    <message>
        <source>No tree to compare: the recorded execution kept none.</source>
        <translation>没有可比较的树：所记录的执行没有保留树。</translation>
    </message>
    <message>
        <source>No tree to compare: %1</source>
        <translation>没有可比较的树：%1</translation>
    </message>
    <message>
        <source>the target&apos;s window %1</source>
        <translation>目标所在的窗口 %1</translation>
    </message>
    <message>
        <source>the whole tree</source>
        <translation>整棵树</translation>
    </message>
    <message>
        <source>Trees compared (%1): nothing changed.</source>
        <translation>已比较树（%1）：没有变化。</translation>
    </message>
    <message>
        <source>Trees compared (%1): %2 added, %3 removed, %4 changed.</source>
        <translation>已比较树（%1）：新增 %2，移除 %3，改变 %4。</translation>
    </message>
    <message>
        <source>added</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>改变</translation>
    </message>
</context>
<context>
    <name>Host</name>
    <message>
        <source>msgcode Desktop Host: holds the desktop permissions and serves the msgcode desktop bridge.</source>
        <translation>msgcode Desktop Host：持有桌面权限，并为 msgcode 提供桌面桥接服务。</translation>
    </message>
    <message>
        <source>Run the bridge only, without tray or windows.</source>
        <translation>只运行桥接服务，不显示托盘图标和窗口。</translation>
    </message>
    <message>
        <source>Serve on this socket path (default: $MSGCODE_DESKTOP_SOCKET or $XDG_RUNTIME_DIR/msgcode/com.msgcode.desktop.bridge.sock).</source>
        <translation>在此套接字路径上提供服务（默认：$MSGCODE_DESKTOP_SOCKET 或 $XDG_RUNTIME_DIR/msgcode/com.msgcode.desktop.bridge.sock）。</translation>
    </message>
    <message>
        <source>path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>Evidence may only be written below this directory (default: $WORKSPACE_ROOT).</source>
        <translation>证据只能写入此目录之下（默认：$WORKSPACE_ROOT）。</translation>
    </message>
    <message>
        <source>dir</source>
        <translation>目录</translation>
    </message>
    <message>
        <source>Longest request line accepted (default: 16777216).</source>
        <translation>可接受的最长请求行（默认：16777216）。</translation>
    </message>
    <message>
        <source>bytes</source>
        <translation>字节数</translation>
    </message>
    <message>
        <source>Close a client that leaves a line unfinished this long (default: 10000).</source>
        <translation>客户端的一行请求在这么长时间内仍未发完时，断开该客户端（默认：10000）。</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>Executions that may wait behind the running one (default: 64).</source>
        <translation>当前执行之后最多可排队等待的执行数（默认：64）。</translation>
    </message>
    <message>
        <source>count</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>Tests only: make the socket world-accessible so the peer-uid check can be exercised by another user.</source>
        <translation>仅用于测试：让所有用户都能访问套接字，以便由其他用户来检验对端 uid 检查。</translation>
    </message>
    <message>
        <source>Who approves confirmation tokens: ask (a person, in the GUI), auto (approve everything; headless servers and tests only) or deny (default with --headless: deny).</source>
        <translation>由谁批准确认令牌：ask（由人在图形界面中批准）、auto（全部批准；仅限无界面服务器和测试）或 deny（全部拒绝；使用 --headless 时默认为 deny）。</translation>
    </message>
    <message>
        <source>ask|auto|deny</source>
        <translation>ask|auto|deny</translation>
    </message>
    <message>
        <source>Refuse the confirm phrase: side effects need a token from desktop.confirm.issue.</source>
        <translation>不接受确认短语：有副作用的操作必须持有 desktop.confirm.issue 签发的令牌。</translation>
    </message>
    <message>
        <source>The longest ttlMs a token may be issued with (default: 600000).</source>
        <translation>签发令牌时允许的最长 ttlMs（默认：600000）。</translation>
    </message>
    <message>
        <source>How long a person has to approve before it counts as denied (default: 60000).</source>
        <translation>等待人工批准的时长，超时即视为拒绝（默认：60000）。</translation>
    </message>
    <message>
        <source>Only this executable may connect (repeatable; symlinks are resolved). Without it, any process of your user may.</source>
        <translation>只允许此可执行文件连接（可重复指定；会解析符号链接）。不指定时，你的用户下的任何进程都可以连接。</translation>
    </message>
    <message>
        <source>Where the host keeps its data, e.g. the audit log audit.jsonl (default: %1).</source>
        <translation>主机存放数据的目录，例如审计日志 audit.jsonl（默认：%1）。</translation>
    </message>
    <message>
        <source>msgcode-desktop-host: --%1 needs a positive number</source>
        <translation>msgcode-desktop-host：--%1 需要一个正数</translation>
    </message>
    <message>
        <source>msgcode-desktop-host: --approval-timeout-ms takes at most %1</source>
        <translation>msgcode-desktop-host：--approval-timeout-ms 最大为 %1</translation>
    </message>
    <message>
        <source>msgcode-desktop-host: --confirm-policy takes ask, auto or deny</source>
        <translation>msgcode-desktop-host：--confirm-policy 的取值为 ask、auto 或 deny</translation>
    </message>
    <message>
        <source>msgcode-desktop-host %1 serving on %2</source>
        <translation>msgcode-desktop-host %1 正在 %2 上提供服务</translation>
    </message>
    <message>
        <source>confirm policy %1%2; audit log %3</source>
        <translation>确认策略 %1%2；审计日志 %3</translation>
    </message>
    <message>
        <source>, tokens required</source>
        <translation>，需要令牌</translation>
    </message>
    <message>
        <source>CONFIRM POLICY IS AUTO: every confirmation token and every resume is approved without asking anyone. Use this only on a headless server or in tests.</source>
        <translation>确认策略为 AUTO：所有确认令牌和恢复请求都会在不询问任何人的情况下被批准。请仅在无界面服务器上或测试中使用。</translation>
    </message>
    <message>
        <source>only these callers may connect: %1</source>
        <translation>只允许以下调用方连接：%1</translation>
    </message>
    <message>
        <source>settings: %1</source>
        <translation>设置：%1</translation>
    </message>
    <message>
        <source>Connections open at once, in total (default: 1024).</source>
        <translation>同时打开的连接总数（默认：1024）。</translation>
    </message>
    <message>
        <source>Connections open at once from one process (default: 256).</source>
        <translation>单个进程同时打开的连接数（默认：256）。</translation>
    </message>
    <message>
        <source>Close a connection that sends no request this long after connecting (default: 30000).</source>
        <translation>连接后在这段时间内未发送任何请求的连接将被关闭（默认：30000）。</translation>
    </message>
    <message>
        <source>The policy for requests of the MCP front door (msgcode-desktop-mcp): ask (a person, who may allow the calling client for some minutes), auto or deny (default: the --confirm-policy).</source>
        <translation>MCP 前门（msgcode-desktop-mcp）请求的确认策略：ask（询问用户，可允许调用方客户端若干分钟）、auto 或 deny（默认：与 --confirm-policy 相同）。</translation>
    </message>
    <message>
        <source>msgcode-desktop-host: --mcp-confirm-policy takes ask, auto or deny</source>
        <translation>msgcode-desktop-host：--mcp-confirm-policy 只接受 ask、auto 或 deny</translation>
    </message>
    <message>
        <source>MCP door (%1): confirm policy %2</source>
        <translation>MCP 前门（%1）：确认策略 %2</translation>
    </message>
    <message>
        <source>not found beside the host</source>
        <translation>未在主机程序旁找到</translation>
    </message>
    <message>
        <source>MCP DOOR CONFIRM POLICY IS AUTO: every action the MCP front door asks for is approved without asking anyone (each one is still audited and kept as evidence).</source>
        <translation>MCP 前门确认策略为 AUTO：MCP 前门请求的每个操作都会被自动批准，不询问任何人（每个操作仍会记入审计日志并保留证据）。</translation>
    </message>
    <message>
        <source>Remote agent: dial this control server (off unless given here or in Settings).</source>
        <translation>远程代理：连接此控制服务器（除非在此处或设置中指定，否则关闭）。</translation>
    </message>
    <message>
        <source>host</source>
        <translation>主机名</translation>
    </message>
    <message>
        <source>Remote agent: the control server&apos;s TCP port.</source>
        <translation>远程代理：控制服务器的 TCP 端口。</translation>
    </message>
    <message>
        <source>port</source>
        <translation>端口</translation>
    </message>
    <message>
        <source>Remote agent: speak TLS to the control server.</source>
        <translation>远程代理：与控制服务器之间使用 TLS。</translation>
    </message>
    <message>
        <source>Remote agent: trust only the server certificate with this SHA-256 digest (hex).</source>
        <translation>远程代理：只信任 SHA-256 摘要（十六进制）为此值的服务器证书。</translation>
    </message>
    <message>
        <source>sha256</source>
        <translation>SHA-256 值</translation>
    </message>
    <message>
        <source>Remote agent: the one-time bind code for the first registration; the device token it gets is kept in the keyring.</source>
        <translation>远程代理：首次注册用的一次性绑定码；获得的设备令牌保存在密钥环中。</translation>
    </message>
    <message>
        <source>code</source>
        <translation>绑定码</translation>
    </message>
    <message>
        <source>Remote agent: where the remote caller&apos;s evidence goes, inside the workspace root (default: &lt;workspace root&gt;/remote).</source>
        <translation>远程代理：远程调用方的证据存放位置，须在工作区根目录之内（默认：&lt;工作区根目录&gt;/remote）。</translation>
    </message>
    <message>
        <source>Remote agent: who approves the control server&apos;s side effects: ask (default), auto or deny.</source>
        <translation>远程代理：由谁批准控制服务器的有副作用操作：ask（默认）、auto 或 deny。</translation>
    </message>
    <message>
        <source>Remote agent: the first reconnection delay, doubled after each failure up to 30 s (default: 1000).</source>
        <translation>远程代理：首次重连的延迟，每次失败后加倍，最多 30 秒（默认：1000）。</translation>
    </message>
    <message>
        <source>Remote agent: give up after this many failed attempts in a row (default: 0, never).</source>
        <translation>远程代理：连续失败这么多次后放弃（默认：0，永不放弃）。</translation>
    </message>
    <message>
        <source>Remote agent: one attempt only, no reconnection.</source>
        <translation>远程代理：只尝试一次，不重连。</translation>
    </message>
    <message>
        <source>Remote agent: the device name the server shows (default: the host name).</source>
        <translation>远程代理：服务器上显示的设备名称（默认：本机主机名）。</translation>
    </message>
    <message>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>msgcode-desktop-host: --remote-port takes 1-65535</source>
        <translation>msgcode-desktop-host：--remote-port 的取值范围为 1-65535</translation>
    </message>
    <message>
        <source>msgcode-desktop-host: --remote-host needs --remote-port</source>
        <translation>msgcode-desktop-host：--remote-host 需要同时指定 --remote-port</translation>
    </message>
    <message>
        <source>msgcode-desktop-host: --remote-fingerprint takes a SHA-256 digest (64 hex digits)</source>
        <translation>msgcode-desktop-host：--remote-fingerprint 只接受 SHA-256 摘要（64 位十六进制数字）</translation>
    </message>
    <message>
        <source>msgcode-desktop-host: --remote-fingerprint needs --remote-tls</source>
        <translation>msgcode-desktop-host：--remote-fingerprint 需要同时指定 --remote-tls</translation>
    </message>
    <message>
        <source>msgcode-desktop-host: --remote-max-retries takes 0 or more</source>
        <translation>msgcode-desktop-host：--remote-max-retries 只接受 0 或更大的数</translation>
    </message>
    <message>
        <source>msgcode-desktop-host: --remote-confirm-policy takes ask, auto or deny</source>
        <translation>msgcode-desktop-host：--remote-confirm-policy 只接受 ask、auto 或 deny</translation>
    </message>
    <message>
        <source>remote agent: dialling %1, confirm policy %2, evidence in %3</source>
        <translation>远程代理：正在连接 %1，确认策略 %2，证据位于 %3</translation>
    </message>
    <message>
        <source>Open the accessibility inspector; when a host already runs, ask it to open its inspector.</source>
        <translation>打开辅助功能检查器；如果已有主机在运行，则请它打开自己的检查器。</translation>
    </message>
    <message>
        <source>msgcode-desktop-host: --inspector needs the tray app (not --headless)</source>
        <translation>msgcode-desktop-host：--inspector 需要托盘程序（不能与 --headless 同用）</translation>
    </message>
    <message>
        <source>msgcode-desktop-host: cannot reach the running host: %1</source>
        <translation>msgcode-desktop-host：无法连接正在运行的主机：%1</translation>
    </message>
    <message>
        <source>msgcode-desktop-host: the running host did not open its inspector: %1</source>
        <translation>msgcode-desktop-host：正在运行的主机没有打开检查器：%1</translation>
    </message>
    <message>
        <source>the running host opened its inspector</source>
        <translation>正在运行的主机已打开检查器</translation>
    </message>
    <message>
        <source>msgcode-desktop-host: the remote workspace %1 cannot be used: %2</source>
        <translation>msgcode-desktop-host：无法使用远程工作区 %1：%2</translation>
    </message>
    <message>
        <source>msgcode-desktop-host: --evidence needs a display (not --headless)</source>
        <translation>msgcode-desktop-host：--evidence 需要显示器（不能与 --headless 同用）</translation>
    </message>
    <message>
        <source>Only browse the evidence kept in a workspace or workspace root, or exported as a zip (no host is started).</source>
        <translation>只浏览工作区或工作区根目录中保存的证据，或导出的 zip（不启动主机）。</translation>
    </message>
    <message>
        <source>dir|zip</source>
        <translation>目录|zip</translation>
    </message>
    <message>
        <source>msgcode-desktop-host: %1 cannot be opened: %2</source>
        <translation>msgcode-desktop-host：无法打开 %1：%2</translation>
    </message>
    <message>
        <source>Displays help on commandline options.</source>
        <translation>显示命令行选项的帮助。</translation>
    </message>
    <message>
        <source>Displays help, including generic Qt options.</source>
        <translation>显示帮助，包括通用的 Qt 选项。</translation>
    </message>
    <message>
        <source>Displays version information.</source>
        <translation>显示版本信息。</translation>
    </message>
    <message>
        <source>holds the desktop permissions and serves the msgcode desktop bridge</source>
        <translation>持有桌面权限并提供 msgcode 桌面桥接服务</translation>
    </message>
    <message>
        <source>msgcode Desktop Host holds the accessibility and screen-capture permissions, shows their state in a tray icon and serves a JSON-RPC 2.0 bridge on a local socket, so that msgcode can observe and drive the desktop. Every side effect needs a person&apos;s confirmation (or the policy chosen), and every execution leaves evidence in the caller&apos;s workspace.

With --headless it serves the bridge without tray or windows (a server, a CI desktop; see the systemd user unit msgcode-desktop-host.service). --inspector opens the accessibility inspector, --evidence the evidence browser.</source>
        <translation>msgcode Desktop Host 持有辅助功能和屏幕捕获权限，在托盘图标中显示它们的状态，并在本地套接字上提供 JSON-RPC 2.0 桥接服务，使 msgcode 能够观察并操作桌面。每个有副作用的操作都需要用户确认（或所选策略），每次执行都会在调用方的工作区留下证据。

使用 --headless 时只提供桥接服务，没有托盘和窗口（服务器、CI 桌面；参见 systemd 用户单元 msgcode-desktop-host.service）。--inspector 打开辅助功能检查器，--evidence 打开证据浏览器。</translation>
    </message>
    <message>
        <source>msgcode-desktop-host: no temporary directory to open %1 in</source>
        <translation>msgcode-desktop-host：没有可用于打开 %1 的临时目录</translation>
    </message>
    <message>
        <source>When the person uses the keyboard or mouse while the host injects input: abort (stop the execution; the default), wait (hold until they are quiet) or off.</source>
        <translation>当主机注入输入时用户使用了键盘或鼠标：abort（停止执行；默认）、wait（等用户停下来）或 off（关闭）。</translation>
    </message>
    <message>
        <source>abort|wait|off</source>
        <translation>abort|wait|off 之一</translation>
    </message>
    <message>
        <source>With --yield-to-user wait: how long the person must have been quiet (default 1500).</source>
        <translation>与 --yield-to-user wait 同用：用户需要停止操作多长时间（默认 1500）。</translation>
    </message>
    <message>
        <source>msgcode-desktop-host: --yield-to-user takes abort, wait or off</source>
        <translation>msgcode-desktop-host：--yield-to-user 只接受 abort、wait 或 off</translation>
    </message>
    <message>
        <source>msgcode-desktop-host: --yield-quiet-ms takes 100 to 60000</source>
        <translation>msgcode-desktop-host：--yield-quiet-ms 的取值范围为 100 到 60000</translation>
    </message>
    <message>
        <source>How long an event subscription outlives its connection, still watched and recorded so that a reader coming back with its cursor misses nothing (default 600; 0: not at all).</source>
        <translation>事件订阅在其连接断开后仍保留多久（期间继续监视和记录，使带着游标重新连接的读取方不会遗漏任何事件）（默认 600；0：不保留）。</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>msgcode-desktop-host: --events-linger-seconds takes 0 to %1</source>
        <translation>msgcode-desktop-host：--events-linger-seconds 取值为 0 到 %1</translation>
    </message>
    <message>
        <source>desktop.ground: your own OpenAI-compatible vision model&apos;s API, e.g. http://127.0.0.1:8080/v1 (overrides Settings; off unless given here or there).</source>
        <translation>desktop.ground：你自己的 OpenAI 兼容视觉模型的 API，例如 http://127.0.0.1:8080/v1（覆盖设置；两处都未给出时关闭）。</translation>
    </message>
    <message>
        <source>url</source>
        <translation>网址</translation>
    </message>
    <message>
        <source>desktop.ground: the model name the endpoint is asked for.</source>
        <translation>desktop.ground：向端点请求的模型名称。</translation>
    </message>
    <message>
        <source>msgcode-desktop-host: --grounding-endpoint takes an http or https URL</source>
        <translation>msgcode-desktop-host：--grounding-endpoint 需要 http 或 https 网址</translation>
    </message>
    <message>
        <source>The owner&apos;s rules: a JSON file {&quot;unattended&quot;: bool, &quot;rules&quot;: [...]} (docs/protocol.md, &quot;Policy&quot;). Its rules are asked before the built-in ones.</source>
        <translation>所有者的规则：一个 JSON 文件 {&quot;unattended&quot;: bool, &quot;rules&quot;: [...]}（docs/protocol.md，“Policy”）。其中的规则先于内置规则生效。</translation>
    </message>
    <message>
        <source>file</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Unattended: every side effect an owner&apos;s rule would ask a person about is refused at once (needs_person), never left to a dialog nobody answers.</source>
        <translation>无人值守：凡是所有者的规则需要人确认的副作用都立即拒绝（needs_person），绝不留给无人应答的对话框。</translation>
    </message>
    <message>
        <source>msgcode-desktop-host: --policy: cannot read %1</source>
        <translation>msgcode-desktop-host：--policy：无法读取 %1</translation>
    </message>
    <message>
        <source>msgcode-desktop-host: --policy: %1 is not a JSON object</source>
        <translation>msgcode-desktop-host：--policy：%1 不是 JSON 对象</translation>
    </message>
    <message>
        <source>msgcode-desktop-host: --policy: %1: %2: %3</source>
        <translation>msgcode-desktop-host：--policy：%1：%2：%3</translation>
    </message>
</context>
<context>
    <name>HostSettings</name>
    <message>
        <source>The workspace root %1 does not exist.</source>
        <translation>工作区根目录 %1 不存在。</translation>
    </message>
    <message>
        <source>The workspace root %1 is not a directory.</source>
        <translation>工作区根目录 %1 不是目录。</translation>
    </message>
    <message>
        <source>The longest token lifetime must be between %1 and %2 ms.</source>
        <translation>令牌最长有效期必须介于 %1 到 %2 毫秒之间。</translation>
    </message>
    <message>
        <source>The approval timeout must be between %1 and %2 ms.</source>
        <translation>批准时限必须介于 %1 到 %2 毫秒之间。</translation>
    </message>
    <message>
        <source>The PNG compression level must be between 0 and 9.</source>
        <translation>PNG 压缩级别必须介于 0 到 9 之间。</translation>
    </message>
    <message>
        <source>The allowed caller %1 does not exist.</source>
        <translation>允许的调用方 %1 不存在。</translation>
    </message>
    <message>
        <source>The allowed caller %1 is not a file.</source>
        <translation>允许的调用方 %1 不是文件。</translation>
    </message>
    <message>
        <source>Unknown language &quot;%1&quot;.</source>
        <translation>未知语言“%1”。</translation>
    </message>
    <message>
        <source>The host refused the workspace root: %1</source>
        <translation>主机拒绝了该工作区根目录：%1</translation>
    </message>
    <message>
        <source>The control server&apos;s port must be between 1 and 65535.</source>
        <translation>控制服务器的端口必须介于 1 到 65535 之间。</translation>
    </message>
    <message>
        <source>The certificate fingerprint must be a SHA-256 digest: 64 hexadecimal digits.</source>
        <translation>证书指纹必须是 SHA-256 摘要：64 位十六进制数字。</translation>
    </message>
    <message>
        <source>A pinned certificate needs TLS.</source>
        <translation>固定证书需要启用 TLS。</translation>
    </message>
    <message>
        <source>Yielding to the person must be abort, wait or off.</source>
        <translation>让位于用户的方式必须是 abort、wait 或 off。</translation>
    </message>
    <message>
        <source>The quiet period must be between 100 and 60000 ms.</source>
        <translation>停止操作的时长必须介于 100 到 60000 毫秒之间。</translation>
    </message>
    <message>
        <source>Events are kept for a reader for 0 to %1 seconds after it goes away.</source>
        <translation>读取方断开后，事件可保留 0 到 %1 秒。</translation>
    </message>
    <message>
        <source>The grounding endpoint must be an http or https URL, such as http://127.0.0.1:8080/v1.</source>
        <translation>定位端点必须是 http 或 https 网址，例如 http://127.0.0.1:8080/v1。</translation>
    </message>
    <message>
        <source>The grounding endpoint&apos;s timeout must be between %1 and %2 ms.</source>
        <translation>定位端点的超时必须在 %1 到 %2 毫秒之间。</translation>
    </message>
</context>
<context>
    <name>Inspector::AxTreeModel</name>
    <message>
        <source>(secure)</source>
        <translation>（安全字段）</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>States</source>
        <translation>状态</translation>
    </message>
</context>
<context>
    <name>Inspector::InspectorService</name>
    <message>
        <source>waiting: %1 running</source>
        <translation>等待中：%1 正在运行</translation>
    </message>
</context>
<context>
    <name>Inspector::InspectorWindow</name>
    <message>
        <source>Accessibility Inspector</source>
        <translation>辅助功能检查器</translation>
    </message>
    <message>
        <source>Picking in %1…</source>
        <translation>%1 秒后拾取…</translation>
    </message>
    <message>
        <source>Pick under the mouse (3 s)</source>
        <translation>拾取鼠标下的元素（3 秒）</translation>
    </message>
    <message>
        <source>No accessible element under (%1, %2).</source>
        <translation>(%1, %2) 处没有可访问的元素。</translation>
    </message>
    <message>
        <source>Could not read the element under the mouse: %1</source>
        <translation>无法读取鼠标下的元素：%1</translation>
    </message>
    <message>
        <source>Picked %1 &quot;%2&quot; at (%3, %4).</source>
        <translation>已拾取 (%3, %4) 处的 %1“%2”。</translation>
    </message>
    <message>
        <source>Window:</source>
        <translation>窗口：</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新读取</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>实时</translation>
    </message>
    <message>
        <source>Search the loaded nodes by role or title</source>
        <translation>按角色或标题搜索已加载的节点</translation>
    </message>
    <message>
        <source>Property</source>
        <translation>属性</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Selector tester (what desktop.find accepts)</source>
        <translation>选择器测试（接受 desktop.find 所接受的内容）</translation>
    </message>
    <message>
        <source>{&quot;selector&quot;: {&quot;byRole&quot;: &quot;AXButton&quot;, &quot;titleContains&quot;: &quot;Send&quot;}}  (without a route: the window above)</source>
        <translation>{&quot;selector&quot;: {&quot;byRole&quot;: &quot;AXButton&quot;, &quot;titleContains&quot;: &quot;Send&quot;}}（不写 route 时：上面选中的窗口）</translation>
    </message>
    <message>
        <source>JSON</source>
        <translation>JSON 文本</translation>
    </message>
    <message>
        <source>Form</source>
        <translation>表单</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>排名</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>得分</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Suggest selector</source>
        <translation>建议选择器</translation>
    </message>
    <message>
        <source>Copy JSON</source>
        <translation>复制 JSON 文本</translation>
    </message>
    <message>
        <source>Copy desktopctl line</source>
        <translation>复制 desktopctl 命令行</translation>
    </message>
    <message>
        <source>Try an action on the selected node</source>
        <translation>对选中的节点试一个操作</translation>
    </message>
    <message>
        <source>Click</source>
        <translation>点击</translation>
    </message>
    <message>
        <source>Text to type into it</source>
        <translation>要输入的文本</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Could not list the windows: %1</source>
        <translation>无法列出窗口：%1</translation>
    </message>
    <message>
        <source>%1 — %2 (pid %3)</source>
        <translation>%1 — %2（进程 %3）</translation>
    </message>
    <message>
        <source>%1 — %2 (pid %3, %4)</source>
        <translation>%1 — %2（进程 %3，%4）</translation>
    </message>
    <message>
        <source>; the tree below is the last one read.</source>
        <translation>；下面的树是最近一次读取的结果。</translation>
    </message>
    <message>
        <source>The app does not answer (%1); the tree below is the last one read.</source>
        <translation>应用没有响应（%1）；下面的树是最近一次读取的结果。</translation>
    </message>
    <message>
        <source>Could not read the window: %1</source>
        <translation>无法读取窗口：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) disappeared since the last read: %1</source>
        <translation>
            <numerusform>自上次读取以来有 %n 个节点消失：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>The tree was cut (%1).</source>
        <translation>树被截断（%1）。</translation>
    </message>
    <message>
        <source>Native role</source>
        <translation>原生角色</translation>
    </message>
    <message>
        <source>Subrole</source>
        <translation>子角色</translation>
    </message>
    <message>
        <source>(secure: never read)</source>
        <translation>（安全字段：从不读取）</translation>
    </message>
    <message>
        <source>(not read)</source>
        <translation>（未读取）</translation>
    </message>
    <message>
        <source>Identifier</source>
        <translation>标识符</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <source>States</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Actions</source>
        <translation>动作</translation>
    </message>
    <message>
        <source>Frame (screen)</source>
        <translation>框架（屏幕坐标）</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>Fingerprint</source>
        <translation>指纹</translation>
    </message>
    <message>
        <source>Labelled by</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Children</source>
        <translation>子节点</translation>
    </message>
    <message>
        <source>Not a JSON object: %1</source>
        <translation>不是 JSON 对象：%1</translation>
    </message>
    <message>
        <source>Choose a window first, or give a route.</source>
        <translation>请先选择一个窗口，或给出 route。</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es) in %1 ms</source>
        <translation>
            <numerusform>%n 个匹配，用时 %1 毫秒</numerusform>
        </translation>
    </message>
    <message>
        <source>No selector matches this node alone.</source>
        <translation>没有只匹配此节点的选择器。</translation>
    </message>
    <message>
        <source>Checking %1 against the live tree…</source>
        <translation>正在用实时树检查 %1…</translation>
    </message>
    <message>
        <source>%1
Matches this node alone in the live tree. Chosen for %2.</source>
        <translation>%1
在实时树中只匹配此节点。选择理由：%2。</translation>
    </message>
    <message>
        <source>%1
Not confirmed: the live tree gave %2 match(es)%3. The tree may have changed; reload and try again.</source>
        <translation>%1
未确认：实时树中有 %2 个匹配%3。树可能已经变化；请重新读取后再试。</translation>
    </message>
    <message>
        <source>Select a node first.</source>
        <translation>请先选择一个节点。</translation>
    </message>
    <message>
        <source>No workspace root is set, so no action can keep its evidence.</source>
        <translation>未设置工作区根目录，因此任何操作都无法保存证据。</translation>
    </message>
    <message>
        <source>%1 running…</source>
        <translation>%1 正在运行…</translation>
    </message>
    <message>
        <source>%1: effect %2 (%3); evidence in %4</source>
        <translation>%1：效果 %2（%3）；证据位于 %4</translation>
    </message>
    <message>
        <source>Suggest a selector for this node first: an action goes to the element the live tree confirmed.</source>
        <translation>请先为此节点建议一个选择器：操作只会作用于实时树确认过的元素。</translation>
    </message>
    <message>
        <source>Read the tree again when the app reports a change, and every %1 s for apps that report nothing, while this window is open.</source>
        <translation>本窗口打开期间，应用报告变化时重新读取树；对不报告变化的应用，每 %1 秒读取一次。</translation>
    </message>
    <message>
        <source>The selected element is behind this window.</source>
        <translation>所选元素位于本窗口后面。</translation>
    </message>
    <message>
        <source>Move this window aside</source>
        <translation>把本窗口移开</translation>
    </message>
    <message>
        <source>The screen has no room beside the selected element: it is partly behind this window. Make this window smaller to see it.</source>
        <translation>屏幕上所选元素旁边没有空间：它有一部分位于本窗口后面。请缩小本窗口以查看它。</translation>
    </message>
    <message>
        <source>OCR layer</source>
        <translation>OCR 图层</translation>
    </message>
    <message>
        <source>Box every line of text the OCR engine reads in the window: what a selector with source &quot;ocr&quot; can find there.</source>
        <translation>框出 OCR 引擎在窗口中读到的每一行文字：即 source 为 &quot;ocr&quot; 的选择器在那里能找到的内容。</translation>
    </message>
    <message>
        <source>Choose a window first: the OCR layer reads its text.</source>
        <translation>请先选择一个窗口：OCR 图层读取它的文字。</translation>
    </message>
    <message>
        <source>The OCR layer could not read the window: %1</source>
        <translation>OCR 图层无法读取该窗口：%1</translation>
    </message>
    <message numerus="yes">
        <source>OCR layer: %n line(s) read in %1 ms by %2.</source>
        <translation>
            <numerusform>OCR 图层：%2 用时 %1 毫秒读到 %n 行。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Inspector::SelectorForm</name>
    <message>
        <source>AXButton, or the platform&apos;s role</source>
        <translation>AXButton，或平台自己的角色名</translation>
    </message>
    <message>
        <source>Role:</source>
        <translation>角色：</translation>
    </message>
    <message>
        <source>Title:</source>
        <translation>标题：</translation>
    </message>
    <message>
        <source>Value:</source>
        <translation>值：</translation>
    </message>
    <message>
        <source>Description:</source>
        <translation>描述：</translation>
    </message>
    <message>
        <source>the identifier, exactly</source>
        <translation>标识符（完全一致）</translation>
    </message>
    <message>
        <source>Identifier:</source>
        <translation>标识符：</translation>
    </message>
    <message>
        <source>child indexes from the window, e.g. 0/2/1</source>
        <translation>从窗口起的子节点序号，例如 0/2/1</translation>
    </message>
    <message>
        <source>Path:</source>
        <translation>路径：</translation>
    </message>
    <message>
        <source>x, y, width, height: its centre lies inside</source>
        <translation>x, y, 宽, 高：元素中心位于其中</translation>
    </message>
    <message>
        <source>Rectangle:</source>
        <translation>矩形：</translation>
    </message>
    <message>
        <source>the title of its label</source>
        <translation>其标签的标题</translation>
    </message>
    <message>
        <source>Labelled by:</source>
        <translation>标签：</translation>
    </message>
    <message>
        <source>the title of an element near it</source>
        <translation>附近某个元素的标题</translation>
    </message>
    <message>
        <source> px</source>
        <translation> 像素</translation>
    </message>
    <message>
        <source>Near:</source>
        <translation>附近：</translation>
    </message>
    <message>
        <source>0 the first match, -1 the last</source>
        <translation>0 为第一个匹配，-1 为最后一个</translation>
    </message>
    <message>
        <source>Only match number:</source>
        <translation>只取第几个匹配：</translation>
    </message>
    <message>
        <source>a regular expression over the window title</source>
        <translation>匹配窗口标题的正则表达式</translation>
    </message>
    <message>
        <source>In window:</source>
        <translation>所在窗口：</translation>
    </message>
    <message>
        <source>Enabled only</source>
        <translation>仅限已启用</translation>
    </message>
    <message>
        <source>Visible only</source>
        <translation>仅限可见</translation>
    </message>
    <message>
        <source>Case sensitive</source>
        <translation>区分大小写</translation>
    </message>
    <message>
        <source>Answer at most:</source>
        <translation>最多返回：</translation>
    </message>
    <message>
        <source>contains</source>
        <translation>包含</translation>
    </message>
    <message>
        <source>equals</source>
        <translation>等于</translation>
    </message>
    <message>
        <source>matches (regular expression)</source>
        <translation>匹配（正则表达式）</translation>
    </message>
    <message>
        <source>the accessibility tree</source>
        <translation>无障碍树</translation>
    </message>
    <message>
        <source>the text on screen (OCR)</source>
        <translation>屏幕上的文字（OCR）</translation>
    </message>
    <message>
        <source>the tree, else the text on screen</source>
        <translation>先无障碍树，否则屏幕上的文字</translation>
    </message>
    <message>
        <source>Search in:</source>
        <translation>搜索范围：</translation>
    </message>
</context>
<context>
    <name>Permissions</name>
    <message>
        <source>No D-Bus session bus: AT-SPI cannot be reached (is DBUS_SESSION_BUS_ADDRESS set and the session bus running?)</source>
        <translation>没有 D-Bus 会话总线：无法连接 AT-SPI（DBUS_SESSION_BUS_ADDRESS 是否已设置，会话总线是否在运行？）</translation>
    </message>
    <message>
        <source>The AT-SPI bus does not answer (org.a11y.Bus.GetAddress: %1). Install at-spi2-core and make sure at-spi-bus-launcher can start.</source>
        <translation>AT-SPI 总线没有响应（org.a11y.Bus.GetAddress：%1）。请安装 at-spi2-core，并确认 at-spi-bus-launcher 可以启动。</translation>
    </message>
    <message>
        <source>Cannot read org.a11y.Status.IsEnabled: %1</source>
        <translation>无法读取 org.a11y.Status.IsEnabled：%1</translation>
    </message>
    <message>
        <source>Accessibility is switched off (org.a11y.Status.IsEnabled is false), so apps do not expose their UI. Turn it on with: gsettings set org.gnome.desktop.interface toolkit-accessibility true (then restart the apps), or from the host&apos;s onboarding window.</source>
        <translation>辅助功能已关闭（org.a11y.Status.IsEnabled 为 false），应用不会公开其界面。请用以下命令开启：gsettings set org.gnome.desktop.interface toolkit-accessibility true（然后重新启动这些应用），或在本程序的设置向导窗口中开启。</translation>
    </message>
    <message>
        <source>The AT-SPI bus answers and accessibility is enabled</source>
        <translation>AT-SPI 总线有响应，辅助功能已开启</translation>
    </message>
    <message>
        <source>No display: DISPLAY is not set, so there is no screen to capture</source>
        <translation>没有显示器：未设置 DISPLAY，因此没有可截取的屏幕</translation>
    </message>
    <message>
        <source>Wayland without XWayland: screen capture and input injection through the Wayland portals are not supported yet; run an X11 session</source>
        <translation>Wayland（无 XWayland）：尚不支持通过 Wayland 门户截屏和注入输入；请使用 X11 会话</translation>
    </message>
    <message>
        <source>Cannot open the X display %1</source>
        <translation>无法打开 X 显示器 %1</translation>
    </message>
    <message>
        <source>X11 display %1 is available for capture</source>
        <translation>X11 显示器 %1 可用于截屏</translation>
    </message>
    <message>
        <source>XWayland display %1: only X11 windows can be captured and driven</source>
        <translation>XWayland 显示器 %1：只能截取和操作 X11 窗口</translation>
    </message>
    <message>
        <source>Apps started before accessibility was switched on must be restarted to appear.</source>
        <translation>在开启辅助功能之前启动的应用，需要重新启动后才能被识别。</translation>
    </message>
    <message>
        <source>Press the button to switch accessibility on for this session (org.a11y.Status) and for the desktop&apos;s settings (toolkit-accessibility). Apps that are already running must be restarted afterwards.</source>
        <translation>点击此按钮，即可为当前会话（org.a11y.Status）和桌面设置（toolkit-accessibility）开启辅助功能。之后需要重新启动已在运行的应用。</translation>
    </message>
    <message>
        <source>This is a Wayland session. Capturing the screen and injecting input through the Wayland portals is not supported yet: log in to an X11 session (&quot;GNOME on Xorg&quot;) to use the host.</source>
        <translation>当前是 Wayland 会话。目前尚不支持通过 Wayland 门户（portal）捕获屏幕和注入输入：请登录 X11 会话（“GNOME on Xorg”）后再使用本程序。</translation>
    </message>
    <message>
        <source>On X11 any program of your session may read the screen; nothing to grant.</source>
        <translation>在 X11 下，会话中的任何程序都可以读取屏幕，无需授权。</translation>
    </message>
    <message>
        <source>There is no X11 display to capture. Start the host inside your desktop session (DISPLAY must be set).</source>
        <translation>没有可供捕获的 X11 显示。请在你的桌面会话中启动本程序（必须设置 DISPLAY）。</translation>
    </message>
    <message>
        <source>Turn accessibility on</source>
        <translation>开启辅助功能</translation>
    </message>
    <message>
        <source>Accessibility is granted to the host.</source>
        <translation>已授予本程序辅助功能权限。</translation>
    </message>
    <message>
        <source>Accessibility is not granted: System Settings &gt; Privacy &amp; Security &gt; Accessibility, turn on msgcode Desktop Host.</source>
        <translation>尚未授予辅助功能权限：请在“系统设置 &gt; 隐私与安全性 &gt; 辅助功能”中打开 msgcode Desktop Host。</translation>
    </message>
    <message>
        <source>Screen recording is granted to the host.</source>
        <translation>已授予本程序屏幕录制权限。</translation>
    </message>
    <message>
        <source>Screen recording is not granted: System Settings &gt; Privacy &amp; Security &gt; Screen Recording, turn on msgcode Desktop Host, then restart it.</source>
        <translation>尚未授予屏幕录制权限：请在“系统设置 &gt; 隐私与安全性 &gt; 屏幕录制”中打开 msgcode Desktop Host，然后重新启动它。</translation>
    </message>
    <message>
        <source>Granted. macOS keeps the grant for this signed copy of the host; a copy signed differently must be granted again (tccutil reset Accessibility com.msgcode.desktop.host starts over).</source>
        <translation>已授予。macOS 为这一签名的程序副本保留授权；签名不同的副本需要重新授权（tccutil reset Accessibility com.msgcode.desktop.host 可从头开始）。</translation>
    </message>
    <message>
        <source>Press the button: macOS asks whether to let the host control the computer and opens System Settings &gt; Privacy &amp; Security &gt; Accessibility, where you turn the host on.</source>
        <translation>请按下按钮：macOS 会询问是否允许本程序控制电脑，并打开“系统设置 &gt; 隐私与安全性 &gt; 辅助功能”，在那里打开本程序。</translation>
    </message>
    <message>
        <source>Granted.</source>
        <translation>已授予。</translation>
    </message>
    <message>
        <source>Open Accessibility settings</source>
        <translation>打开辅助功能设置</translation>
    </message>
    <message>
        <source>Turn msgcode Desktop Host on in System Settings &gt; Privacy &amp; Security &gt; Accessibility.</source>
        <translation>请在“系统设置 &gt; 隐私与安全性 &gt; 辅助功能”中打开 msgcode Desktop Host。</translation>
    </message>
    <message>
        <source>Press the button: macOS lists the host under System Settings &gt; Privacy &amp; Security &gt; Screen Recording (it lists only apps that asked) and opens that pane, where you turn the host on; macOS applies it after the host restarts.</source>
        <translation>点击此按钮：macOS 会把本主机列入“系统设置 &gt; 隐私与安全性 &gt; 屏幕录制”（只列出请求过权限的应用）并打开该面板，请在其中打开本主机；主机重启后生效。</translation>
    </message>
    <message>
        <source>Allow screen recording</source>
        <translation>允许屏幕录制</translation>
    </message>
    <message>
        <source>Turn msgcode Desktop Host on in System Settings &gt; Privacy &amp; Security &gt; Screen Recording, then restart the host.</source>
        <translation>请在“系统设置 &gt; 隐私与安全性 &gt; 屏幕录制”中打开 msgcode Desktop Host，然后重启主机。</translation>
    </message>
</context>
<context>
    <name>Remote::RemoteAgent</name>
    <message>
        <source>the server did not answer the authentication in time</source>
        <translation>服务器未能及时应答认证请求</translation>
    </message>
    <message>
        <source>the connection was not made in time</source>
        <translation>未能及时建立连接</translation>
    </message>
    <message>
        <source>this device has no token for %1 yet: enter the bind code the control server shows</source>
        <translation>本设备还没有 %1 的令牌：请输入控制服务器显示的绑定码</translation>
    </message>
    <message>
        <source>no keyring (secret service) is running, so the device token cannot be kept safely and the remote agent does not connect: %1</source>
        <translation>没有运行中的密钥环（secret service），无法安全保存设备令牌，因此远程代理不会连接：%1</translation>
    </message>
    <message>
        <source>the keyring refused to give the device token: %1</source>
        <translation>密钥环拒绝提供设备令牌：%1</translation>
    </message>
    <message>
        <source>the server&apos;s certificate is not trusted (%1); pin it with its SHA-256 fingerprint %2 if it is the right one</source>
        <translation>服务器证书不受信任（%1）；如果它是正确的证书，请用其 SHA-256 指纹 %2 固定它</translation>
    </message>
    <message>
        <source>the server&apos;s certificate (SHA-256 %1) is not the pinned one</source>
        <translation>服务器证书（SHA-256 %1）不是固定的那一个</translation>
    </message>
    <message>
        <source>the server sent a line over %1 bytes</source>
        <translation>服务器发送的一行超过了 %1 字节</translation>
    </message>
    <message>
        <source>the server closed the connection</source>
        <translation>服务器关闭了连接</translation>
    </message>
    <message>
        <source>the server refused the authentication: %1 (%2)</source>
        <translation>服务器拒绝了认证：%1（%2）</translation>
    </message>
    <message>
        <source>the server no longer accepts this device&apos;s token (%1): enter a new bind code</source>
        <translation>服务器不再接受本设备的令牌（%1）：请输入新的绑定码</translation>
    </message>
    <message>
        <source>the bind code was refused (%1): enter a new one</source>
        <translation>绑定码被拒绝（%1）：请输入新的绑定码</translation>
    </message>
    <message>
        <source>the server&apos;s answer to auth was not ok</source>
        <translation>服务器对认证的应答不是 ok</translation>
    </message>
    <message>
        <source>the device token could not be saved in the keyring (%1): the next start needs a new bind code</source>
        <translation>无法将设备令牌保存到密钥环（%1）：下次启动需要新的绑定码</translation>
    </message>
    <message>
        <source>%1; reconnecting is off</source>
        <translation>%1；重连已关闭</translation>
    </message>
    <message numerus="yes">
        <source>gave up after %n retries: %1</source>
        <translation>
            <numerusform>重试 %n 次后放弃：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>%1; next attempt in %2 ms</source>
        <translation>%1；%2 毫秒后再次尝试</translation>
    </message>
    <message>
        <source>the keyring could not remove the device token: %1</source>
        <translation>密钥环无法删除设备令牌：%1</translation>
    </message>
    <message>
        <source>the device token was forgotten: enter a bind code to connect to %1 again</source>
        <translation>设备令牌已被忘记：请输入绑定码以再次连接 %1</translation>
    </message>
</context>
<context>
    <name>SelectorLab</name>
    <message>
        <source>The selector must be a JSON object.</source>
        <translation>选择器必须是 JSON 对象。</translation>
    </message>
    <message>
        <source>not read: %1</source>
        <translation>未读取：%1</translation>
    </message>
    <message>
        <source>%1 (many)</source>
        <translation>%1（多个）</translation>
    </message>
    <message>
        <source>partial tree</source>
        <translation>部分树</translation>
    </message>
    <message>
        <source>full tree</source>
        <translation>完整树</translation>
    </message>
    <message numerus="yes">
        <source>Ran against %n recorded tree(s).</source>
        <translation>
            <numerusform>已在 %n 棵记录的树上运行。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SelfTest</name>
    <message>
        <source>no answer of step &quot;%1&quot; to take %2 from</source>
        <translation>没有步骤“%1”的应答，无法从中取得 %2</translation>
    </message>
    <message>
        <source>the answer of step &quot;%1&quot; has no %2</source>
        <translation>步骤“%1”的应答中没有 %2</translation>
    </message>
    <message>
        <source>%1: expected %2 %3, the answer has %4</source>
        <translation>%1：期望%2 %3，应答中为 %4</translation>
    </message>
    <message>
        <source>text containing</source>
        <translation>包含以下内容的文本</translation>
    </message>
    <message>
        <source>the value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>no host serves %1 (%2)</source>
        <translation>没有主机在 %1 上提供服务（%2）</translation>
    </message>
    <message>
        <source>no JSON-RPC answer from the host in time</source>
        <translation>主机未能及时给出 JSON-RPC 应答</translation>
    </message>
    <message>
        <source>The host now asks for your approval, once, for the self-test&apos;s first action (%1). Approve it in the host&apos;s dialog.</source>
        <translation>现在主机会为自检的第一个操作（%1）请求你批准，只此一次。请在主机的对话框中批准。</translation>
    </message>
    <message>
        <source>not approved: %1: %2</source>
        <translation>未获批准：%1：%2</translation>
    </message>
    <message>
        <source>not run: the self-test stopped earlier</source>
        <translation>未运行：自检已提前停止</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 is a folder</source>
        <translation>%1 是一个文件夹</translation>
    </message>
    <message>
        <source>no folder %1</source>
        <translation>没有文件夹 %1</translation>
    </message>
    <message>
        <source>a check needs readText, file or dir</source>
        <translation>检查项需要 readText、file 或 dir</translation>
    </message>
    <message>
        <source>%1 check: wanted %2 &quot;%3&quot;, saw %4</source>
        <translation>%1 检查：期望%2“%3”，实际为 %4</translation>
    </message>
    <message>
        <source>exactly</source>
        <translation>完全等于</translation>
    </message>
    <message>
        <source>PASS</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>FAIL</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>== %1</source>
        <translation>== %1</translation>
    </message>
    <message>
        <source>start %1</source>
        <translation>启动 %1</translation>
    </message>
    <message>
        <source>%1 could not be started</source>
        <translation>无法启动 %1</translation>
    </message>
    <message>
        <source>%1 could not be started: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <source>the app did not become ready: %1</source>
        <translation>应用未能就绪：%1</translation>
    </message>
    <message>
        <source>not run: the app did not start</source>
        <translation>未运行：应用未启动</translation>
    </message>
    <message>
        <source>quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>its windows are gone</source>
        <translation>其窗口已关闭</translation>
    </message>
    <message>
        <source>      %1 did not quit; the self-test ended it</source>
        <translation>      %1 没有退出；已由自检结束</translation>
    </message>
    <message>
        <source>error: cannot write %1: %2</source>
        <translation>错误：无法写入 %1：%2</translation>
    </message>
    <message>
        <source>%1 of %2 steps passed. Report: %3; evidence: %4</source>
        <translation>%2 个步骤中有 %1 个通过。报告：%3；证据：%4</translation>
    </message>
    <message>
        <source>error: cannot read %1: %2</source>
        <translation>错误：无法读取 %1：%2</translation>
    </message>
    <message>
        <source>error: %1 is not an app description (%2)</source>
        <translation>错误：%1 不是应用描述（%2）</translation>
    </message>
    <message>
        <source>error: cannot make the folder %1</source>
        <translation>错误：无法创建文件夹 %1</translation>
    </message>
    <message>
        <source>error: %1: %2</source>
        <translation>错误：%1：%2</translation>
    </message>
    <message>
        <source>msgcode-desktop-host %1 on %2; the self-test works in %3</source>
        <translation>msgcode-desktop-host %1，运行于 %2；自检在 %3 中进行</translation>
    </message>
</context>
<context>
    <name>TrayState</name>
    <message>
        <source>Accessibility: granted</source>
        <translation>辅助功能：已授权</translation>
    </message>
    <message>
        <source>Accessibility: not granted</source>
        <translation>辅助功能：未授权</translation>
    </message>
    <message>
        <source>Screen capture: available</source>
        <translation>屏幕捕获：可用</translation>
    </message>
    <message>
        <source>Screen capture: not available</source>
        <translation>屏幕捕获：不可用</translation>
    </message>
    <message>
        <source>Bridge: serving on %1</source>
        <translation>桥接：正在 %1 上提供服务</translation>
    </message>
    <message>
        <source>Bridge: not serving</source>
        <translation>桥接：未提供服务</translation>
    </message>
    <message>
        <source>Automation: stopped (side effects paused)</source>
        <translation>自动化：已停止（有副作用的操作已暂停）</translation>
    </message>
    <message>
        <source>Confirmations: asked of you</source>
        <translation>确认：由你批准</translation>
    </message>
    <message>
        <source>Confirmations: approved automatically</source>
        <translation>确认：自动批准</translation>
    </message>
    <message>
        <source>Confirmations: all refused</source>
        <translation>确认：全部拒绝</translation>
    </message>
    <message>
        <source>The bridge is not serving: msgcode cannot reach the host.</source>
        <translation>桥接服务未运行：msgcode 无法连接到本程序。</translation>
    </message>
    <message>
        <source>Automation is stopped until you resume it.</source>
        <translation>自动化已停止，直到你将其恢复。</translation>
    </message>
    <message>
        <source>Every side effect is approved without asking you.</source>
        <translation>所有有副作用的操作都会不经询问直接批准。</translation>
    </message>
    <message>
        <source>Nobody can approve requests, so they are all refused.</source>
        <translation>没有人能批准请求，因此所有请求都会被拒绝。</translation>
    </message>
    <message>
        <source>msgcode Desktop Host cannot automate</source>
        <translation>msgcode Desktop Host 无法执行自动化</translation>
    </message>
    <message>
        <source>msgcode Desktop Host is serving, with limits</source>
        <translation>msgcode Desktop Host 正在运行，但功能受限</translation>
    </message>
    <message>
        <source>msgcode Desktop Host is ready</source>
        <translation>msgcode Desktop Host 已就绪</translation>
    </message>
    <message>
        <source>Remote control: connected to %1</source>
        <translation>远程控制：已连接到 %1</translation>
    </message>
    <message>
        <source>Remote control: connecting to %1</source>
        <translation>远程控制：正在连接 %1</translation>
    </message>
    <message>
        <source>Remote control: waiting to reconnect to %1</source>
        <translation>远程控制：等待重新连接 %1</translation>
    </message>
    <message>
        <source>Remote control: %1 needs a bind code</source>
        <translation>远程控制：%1 需要绑定码</translation>
    </message>
    <message>
        <source>Remote control: not connected to %1</source>
        <translation>远程控制：未连接到 %1</translation>
    </message>
    <message>
        <source>Remote control: %1</source>
        <translation>远程控制：%1</translation>
    </message>
    <message>
        <source>Mode: unattended (what the owner&apos;s rules ask a person is refused)</source>
        <translation>模式：无人值守（所有者规则要询问本人的操作一律拒绝）</translation>
    </message>
    <message>
        <source>The rule file changed outside the host: only its stricter rules apply until you trust it in Settings.</source>
        <translation>规则文件在主机之外被修改：在你于设置中信任它之前，只有其中更严格的规则生效。</translation>
    </message>
</context>
<context>
    <name>TreeDiffText</name>
    <message numerus="yes">
        <source>added: %1, with %n node(s) inside</source>
        <translation>
            <numerusform>新增：%1，其中含 %n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <source>added: %1</source>
        <translation>新增：%1</translation>
    </message>
    <message numerus="yes">
        <source>removed: %1, with %n node(s) inside</source>
        <translation>
            <numerusform>移除：%1，其中含 %n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <source>removed: %1</source>
        <translation>移除：%1</translation>
    </message>
    <message>
        <source>title &quot;%1&quot; → &quot;%2&quot;</source>
        <translation>标题“%1”→“%2”</translation>
    </message>
    <message>
        <source>value changed</source>
        <translation>值已改变</translation>
    </message>
    <message>
        <source>states %1</source>
        <translation>状态 %1</translation>
    </message>
    <message>
        <source>moved or resized</source>
        <translation>已移动或改变大小</translation>
    </message>
    <message>
        <source>description changed</source>
        <translation>描述已改变</translation>
    </message>
    <message>
        <source>identifier &quot;%1&quot; → &quot;%2&quot;</source>
        <translation>标识符“%1”→“%2”</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>another app: %1, then %2</source>
        <translation>另一个应用：先是 %1，后是 %2</translation>
    </message>
    <message>
        <source>the former winner %1 is gone with %2</source>
        <translation>之前的最佳匹配 %1 已随 %2 一起消失</translation>
    </message>
    <message>
        <source>the former winner %1 is gone</source>
        <translation>之前的最佳匹配 %1 已消失</translation>
    </message>
    <message>
        <source>the former winner no longer matches: %1</source>
        <translation>之前的最佳匹配不再匹配：%1</translation>
    </message>
    <message>
        <source>the former winner %1 no longer matches</source>
        <translation>之前的最佳匹配 %1 不再匹配</translation>
    </message>
    <message>
        <source>the former winner %1 is outranked</source>
        <translation>之前的最佳匹配 %1 排名被超过</translation>
    </message>
    <message>
        <source>new: %1</source>
        <translation>新出现：%1</translation>
    </message>
    <message>
        <source>now matches: %1</source>
        <translation>现在匹配：%1</translation>
    </message>
    <message>
        <source>%1 → %2 matches</source>
        <translation>匹配数 %1 → %2</translation>
    </message>
    <message>
        <source>in the tree: %1 added, %2 removed, %3 changed</source>
        <translation>树中：新增 %1，移除 %2，改变 %3</translation>
    </message>
</context>
</TS>
