# A Tk window with one red square to hit, placed where argv says (x y): "ready" once shown,
# "hit" when the square is clicked, "miss:<x>,<y>" (screen coordinates) when the click lands
# anywhere else in the window, so a test reads where its click went from the app itself.
set x [lindex $argv 0]
set y [lindex $argv 1]
wm title . "Tk target"
wm geometry . 400x300+$x+$y
canvas .c -width 400 -height 300 -background white -highlightthickness 0
.c create rectangle 250 180 290 220 -fill red -outline red -tags square
.c bind square <Button-1> { puts hit; flush stdout; break }
bind .c <Button-1> { puts "miss:%X,%Y"; flush stdout }
pack .c
update
after 300 { puts ready; flush stdout }
