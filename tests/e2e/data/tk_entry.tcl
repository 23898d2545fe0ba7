# A Tk window (Tk exposes no accessibility on Linux) with one entry that has the keyboard focus.
# Prints "ready" once shown and "text:<contents>" whenever its text changes, so a test reads
# what the window itself holds. Return in the entry opens a second window, "Confirm", which takes
# the focus (as an app's dialog does) and prints "dialog".
wm title . "Tk entry"
wm geometry . 420x120+700+80
entry .e -width 30
pack .e -padx 20 -pady 30
focus .e
bind .e <KeyRelease> { puts "text:[.e get]"; flush stdout }
bind .e <Return> {
    toplevel .c
    wm title .c "Confirm"
    entry .c.e -width 20
    pack .c.e -padx 10 -pady 10
    focus -force .c.e
    puts dialog
    flush stdout
}
update
after 300 { puts ready; flush stdout }
