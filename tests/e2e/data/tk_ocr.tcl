# A Tk window (Tk exposes no accessibility on Linux) that only pixels describe: a label with an
# entry to its right, a button, and a canvas with drawn text. Prints "ready" once shown,
# "text:<contents>" whenever the entry changes, "greeted:<contents>" when the button is pressed
# (which also shows "Hello, <contents>!" below it), "city:<contents>" whenever the second entry
# (which starts as "Paris") changes, and "canvas:<text>" when the drawn text is clicked, so a test
# reads what the window itself saw.
wm title . "Tk OCR"
wm geometry . 520x300+60+60
. configure -background white
frame .row -background white
label .row.l -text "Your name:" -background white -font {{DejaVu Sans} 12}
entry .row.e -width 22 -font {{DejaVu Sans} 12}
pack .row.l -side left -padx 8
pack .row.e -side left -padx 8
pack .row -pady 16 -anchor w
frame .city -background white
label .city.l -text "City:" -background white -font {{DejaVu Sans} 12}
entry .city.e -width 22 -font {{DejaVu Sans} 12}
.city.e insert 0 "Paris"
pack .city.l -side left -padx 8
pack .city.e -side left -padx 8
pack .city -pady 0 -anchor w
label .hello -text "" -background white -font {{DejaVu Sans} 12}
button .b -text "Greet" -font {{DejaVu Sans} 12} -command {
    .hello configure -text "Hello, [.row.e get]!"
    puts "greeted:[.row.e get]"
    flush stdout
}
pack .b -pady 4
pack .hello -pady 2
canvas .c -width 460 -height 80 -background white -highlightthickness 0
.c create text 230 40 -text "Launch rocket" -font {{DejaVu Sans} 16} -tags launch
.c bind launch <Button-1> {
    puts "canvas:Launch rocket"
    flush stdout
}
pack .c -pady 8
bind .row.e <KeyRelease> { puts "text:[.row.e get]"; flush stdout }
bind .city.e <KeyRelease> { puts "city:[.city.e get]"; flush stdout }
update
after 300 { puts ready; flush stdout }
