# Stubs for the parts of Scid that its Xfcc client touches but that are not
# the Xfcc client: Tk, the splash screen, Scid's configuration directory and
# its message boxes. The SOAP and HTTP code (namespace Xfcc, Tcl's http
# package, tDOM) is Scid's own and runs unchanged.
#
# Each stub records what Scid asked of it, so that the driver can show what
# Scid would have shown the player.

namespace eval ::driver {
    # Lines Scid writes to its correspondence console.
    variable console {}
    # Message boxes Scid pops up (an authentication failure is one).
    variable messages {}
}

# Scid loads its packages at the global level before its tools; a
# "package require http" first made inside correspondence.tcl's namespace
# would define the http commands inside that namespace instead. Version 2:
# once tcllib is on the path, a bare "package require http" can settle
# for Tcl's obsolete http 1.0, which has no http::config.
package require http 2
package require tdom

# Scid's globals, as its start-up sets them.
set ::scidVersion "4.7.4"
set ::scidVersionDate "2023"
set ::scidDataDir $::driver::work
set ::scidConfigDir $::driver::work
set ::windowsOS 0

# Tk: correspondence.tcl asks only for the windowing system, for its
# User-Agent header.
proc tk {args} {
    if {[lindex $args 0] eq "windowingsystem"} {
        return x11
    }
    error "stub: tk $args is not available without a display"
}

namespace eval ::splash {
    proc add {args} {}
}

# Scid keeps each of its state files under its configuration directory.
proc scidConfigFile {type} {
    return [file join $::scidConfigDir "$type.dat"]
}

proc tk_messageBox {args} {
    set box [dict create]
    foreach {option value} $args {
        dict set box [string trimleft $option -] $value
    }
    lappend ::driver::messages $box
    return ok
}

proc ::tr {token} {
    return $token
}
