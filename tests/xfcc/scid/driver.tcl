# Drives Scid's own Xfcc client against an Xfcc server, without Scid's GUI.
#
#   tclsh driver.tcl WORKDIR URL USER PASSWORD fetch
#   tclsh driver.tcl WORKDIR URL USER PASSWORD send GAMEID MOVECOUNT MOVE COMMENT \
#         RESIGN ACCEPTDRAW OFFERDRAW CLAIMDRAW
#
# It sources Scid's tcl/tools/correspondence.tcl as installed by Debian's
# scid-data package (or the file named by SCID_CORRESPONDENCE_TCL), with the
# stubs of stubs.tcl for Tk and Scid's start-up, and calls the procedures
# Scid's Correspondence window calls:
#
#   fetch: "Retrieve" — ::Xfcc::ReadConfig and ::Xfcc::ProcessAll, which
#          send GetMyGames (::Xfcc::Receive), report faults
#          (::Xfcc::SOAPError), write one PGN file per game into the Inbox
#          (::Xfcc::WritePGN) and fill the game list's state
#          (::Xfcc::PrintStatus, kept in ::Xfcc::xfccstate).
#   send:  "Send", "Resign", "Offer draw", "Accept draw", "Claim draw" —
#          ::Xfcc::Send, which sends MakeAMove (::Xfcc::SendMove) and
#          reports the result (::Xfcc::SOAPError). The flags are passed as
#          Scid's menu passes them: 1 or 0.
#
# The server account is written by Scid's own ::Xfcc::SaveXfcc, as its
# configuration dialog does. What Scid parsed is printed as one JSON object
# on stdout:
#
#   console   the lines Scid writes to its console ("info Not your turn!")
#   messages  the message boxes it pops up ({title, message, ...})
#   games     fetch: each PGN file Scid wrote: {file, tags {Tag value}, movetext}
#   state     fetch: Scid's game-list state per game ({name, myTurn, clockW, ...})
#   response  send: the server's raw answer, as ::Xfcc::SendMove returned it
#
# Exit status: 0 when the calls ran, 2 on bad arguments, 3 when Scid or a
# package it needs is missing (scripts/test.sh installs them).

if {[catch {package require json::write}]} {
    puts stderr "tcllib's json::write is missing: install the Debian package tcllib (scripts/test.sh installs it)"
    exit 3
}

proc usage {} {
    puts stderr "usage: tclsh driver.tcl WORKDIR URL USER PASSWORD fetch"
    puts stderr "       tclsh driver.tcl WORKDIR URL USER PASSWORD send GAMEID MOVECOUNT MOVE COMMENT RESIGN ACCEPTDRAW OFFERDRAW CLAIMDRAW"
    exit 2
}

if {[llength $argv] < 5} {
    usage
}
lassign $argv work url user password command
set rest [lrange $argv 5 end]
if {$command eq "fetch" && [llength $rest] != 0} {
    usage
}
if {$command eq "send" && [llength $rest] != 8} {
    usage
}
if {$command ni {fetch send}} {
    usage
}

set scidfile /usr/share/scid/tcl/tools/correspondence.tcl
if {[info exists ::env(SCID_CORRESPONDENCE_TCL)]} {
    set scidfile $::env(SCID_CORRESPONDENCE_TCL)
}
if {![file readable $scidfile]} {
    puts stderr "Scid's Xfcc client $scidfile is missing: install the Debian packages scid, tdom and tcllib (scripts/test.sh installs them)"
    exit 3
}
if {[catch {package require tdom}]} {
    puts stderr "tDOM is missing: install the Debian package tdom (scripts/test.sh installs it)"
    exit 3
}

namespace eval ::driver {}
set ::driver::work [file normalize $work]
file mkdir $::driver::work
source [file join [file dirname [info script]] stubs.tcl]

# The correspondence database: Scid creates it with its C engine when it is
# missing; the Xfcc client never reads it, so an empty file stands in.
close [open [file join $::scidDataDir Correspondence.si4] a]

source $scidfile

# Scid's console is a Tk text widget; keep its lines instead.
proc ::CorrespondenceChess::updateConsole {line} {
    lappend ::driver::console $line
}

# Keep the raw answer to MakeAMove for the report; Scid's own procedure
# builds and sends the request.
rename ::Xfcc::SendMove ::driver::ScidSendMove
proc ::Xfcc::SendMove {args} {
    set ::driver::response [::driver::ScidSendMove {*}$args]
    return $::driver::response
}

# The account, as Scid's configuration dialog stores it.
set servername wildt
array unset ::Xfcc::xfccsrv
set ::Xfcc::xfccsrv(0,0) $servername
set ::Xfcc::xfccsrv(0,1) $url
set ::Xfcc::xfccsrv(0,2) $user
set ::Xfcc::xfccsrv(0,3) $password
set ::Xfcc::xfccsrv(0,4) ICCF
set ::Xfcc::xfccrcfile $::CorrespondenceChess::xfccrcfile
::Xfcc::SaveXfcc

proc ::driver::jsonlist {items} {
    set out {}
    foreach item $items {
        lappend out [json::write string $item]
    }
    return [json::write array {*}$out]
}

proc ::driver::jsondict {d} {
    set out {}
    dict for {k v} $d {
        lappend out $k [json::write string $v]
    }
    return [json::write object {*}$out]
}

json::write indented 0
set fields [list \
    console [::driver::jsonlist $::driver::console] \
]

if {$command eq "fetch"} {
    set inbox $::CorrespondenceChess::Inbox
    foreach f [glob -nocomplain -directory $inbox *] {
        file delete $f
    }
    ::Xfcc::ReadConfig $::CorrespondenceChess::xfccrcfile
    ::Xfcc::ProcessAll $inbox

    set games {}
    foreach f [lsort [glob -nocomplain -directory $inbox *.pgn]] {
        set fd [open $f r]
        fconfigure $fd -encoding utf-8
        set text [read $fd]
        close $fd
        set tags [dict create]
        set movetext {}
        foreach line [split $text "\n"] {
            if {[regexp {^\[(\w+) "(.*)"\]$} $line -> tag value]} {
                dict set tags $tag $value
            } elseif {[string trim $line] ne ""} {
                lappend movetext [string trim $line]
            }
        }
        lappend games [json::write object \
            file [json::write string [file tail $f]] \
            tags [::driver::jsondict $tags] \
            movetext [json::write string [join $movetext " "]]]
    }

    set state {}
    foreach entry $::Xfcc::xfccstate {
        set d [dict create name [lindex $entry 0]]
        foreach pair [lrange $entry 1 end] {
            dict set d [lindex $pair 0] [lindex $pair 1]
        }
        lappend state [::driver::jsondict $d]
    }
    set fields [list \
        console [::driver::jsonlist $::driver::console] \
        games [json::write array {*}$games] \
        state [json::write array {*}$state] \
    ]
} else {
    lassign $rest gameid movecount move comment resign acceptdraw offerdraw claimdraw
    set ::driver::response ""
    ::Xfcc::ReadConfig $::CorrespondenceChess::xfccrcfile
    ::Xfcc::Send $servername $gameid $movecount $move $comment \
        $resign $acceptdraw $offerdraw $claimdraw
    set fields [list \
        console [::driver::jsonlist $::driver::console] \
        response [json::write string $::driver::response] \
    ]
}

set boxes {}
foreach box $::driver::messages {
    lappend boxes [::driver::jsondict $box]
}
lappend fields messages [json::write array {*}$boxes]
puts [json::write object {*}$fields]
