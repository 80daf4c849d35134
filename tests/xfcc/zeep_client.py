#!/usr/bin/python3
"""Calls an XfccBasic server through zeep, a client built only from the WSDL.

    zeep_client.py WSDL_URL < calls.json

calls.json is a JSON list of calls, made in order over one zeep client:

    {"op": "GetMyGames", "username": "...", "password": "..."}
    {"op": "MakeAMove", "username": "...", "password": "...", "gameId": 3,
     "resign": false, "acceptDraw": false, "movecount": 1, "myMove": "e4",
     "offerDraw": false, "claimDraw": false, "myMessage": ""}

A MakeAMove call may leave out any field but username, password and gameId:
the flags default to false, movecount to 0, myMove and myMessage to "".

It prints one JSON list with one answer per call, in order:

    {"op": "GetMyGames", "games": [{"id": 3, "white": ..., "eventDate": "2026-11-29T00:00:00", ...}]}
    {"op": "MakeAMove", "result": "Success"}
    {"op": ..., "fault": "AuthenticationFailed"}      a SOAP fault

The client, its bindings and the types of every field come from the WSDL the
server serves; zeep checks each answer against that schema and fails loudly
(exit status 1) on an answer that does not fit it. Exit status 3 when zeep is
missing (scripts/test.sh installs python3-zeep).
"""

import datetime
import json
import sys

try:
    import zeep
    import zeep.exceptions
    import zeep.helpers
except ImportError:
    sys.stderr.write(
        "zeep is missing: install the Debian package python3-zeep "
        "(scripts/test.sh installs it) and run this with /usr/bin/python3\n"
    )
    sys.exit(3)

MAKE_A_MOVE_DEFAULTS = {
    "resign": False,
    "acceptDraw": False,
    "movecount": 0,
    "myMove": "",
    "offerDraw": False,
    "claimDraw": False,
    "myMessage": "",
}


def plain(value):
    """zeep's objects as JSON: dates as ISO 8601, everything else as is."""
    if isinstance(value, (datetime.datetime, datetime.date)):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def call(service, request):
    op = request["op"]
    try:
        if op == "GetMyGames":
            games = service.GetMyGames(
                username=request["username"], password=request["password"]
            )
            # An empty GetMyGamesResult reads as None.
            games = zeep.helpers.serialize_object(games, dict) or []
            return {"op": op, "games": plain(games)}
        if op == "MakeAMove":
            args = dict(MAKE_A_MOVE_DEFAULTS)
            args.update({k: v for k, v in request.items() if k != "op"})
            return {"op": op, "result": service.MakeAMove(**args)}
    except zeep.exceptions.Fault as fault:
        return {"op": op, "fault": fault.message}
    raise SystemExit("unknown op %r" % op)


def main():
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        sys.exit(2)
    client = zeep.Client(sys.argv[1])
    calls = json.load(sys.stdin)
    answers = [call(client.service, request) for request in calls]
    json.dump(answers, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
