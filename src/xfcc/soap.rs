//! XfccBasic's SOAP 1.1 envelopes: a request read into a [`Call`], and the
//! answers written in the exact shape of the .NET ASMX service the clients
//! were written against. [pure: no IO]
//!
//! Reading refuses anything but plain elements and text: a document type
//! declaration (and with it any entity definition: XXE, "billion laughs")
//! and processing instructions are refused outright, and an entity
//! reference other than XML's five predefined ones and character
//! references is an error, never expanded. The call is chosen by the body's
//! element (some clients send no SOAPAction).
//!
//! Writing is text, not a tree: some clients read the answers with regular
//! expressions (Scid cuts the envelope off at `<GetMyGamesResult>`), so the
//! prefixes, the default namespace on the response element, unprefixed
//! result elements and lowercase booleans are written exactly as ASMX does.

use quick_xml::escape::escape;
use quick_xml::events::Event;
use quick_xml::name::{Namespace, ResolveResult};
use quick_xml::reader::NsReader;

/// The XfccBasic namespace.
pub const NS: &str = "http://www.bennedik.com/webservices/XfccBasic";
/// SOAP 1.1's envelope namespace.
pub const SOAP_NS: &str = "http://schemas.xmlsoap.org/soap/envelope/";

/// Deepest element nesting read: Envelope, Body, the call, its parameters,
/// and a little room for a Header's content.
const MAX_DEPTH: usize = 8;

/// A request, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Call {
    GetMyGames(Credentials),
    MakeAMove(MakeAMove),
}

impl Call {
    pub fn credentials(&self) -> &Credentials {
        match self {
            Call::GetMyGames(c) => c,
            Call::MakeAMove(m) => &m.credentials,
        }
    }
}

/// `username` and `password`, as every call carries them.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct Credentials {
    pub username: String,
    pub password: String,
}

impl std::fmt::Debug for Credentials {
    /// The password is never printed, not even in a debug log.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("username", &self.username)
            .field("password", &"<hidden>")
            .finish()
    }
}

/// MakeAMove's parameters. A missing flag is false, a missing text empty.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MakeAMove {
    pub credentials: Credentials,
    pub game_id: i64,
    pub resign: bool,
    pub accept_draw: bool,
    /// The full-move number of the move sent.
    pub movecount: u32,
    /// SAN, in English letters.
    pub my_move: String,
    pub offer_draw: bool,
    pub claim_draw: bool,
    pub my_message: String,
}

/// Why a request is not a call.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    #[error("the request is not well-formed XML: {0}")]
    Xml(String),
    #[error("document type declarations are not accepted")]
    Doctype,
    #[error("processing instructions are not accepted")]
    ProcessingInstruction,
    #[error("the request is not UTF-8")]
    NotUtf8,
    #[error("elements nest deeper than {MAX_DEPTH}")]
    TooDeep,
    #[error("the request is not a SOAP 1.1 envelope")]
    NotAnEnvelope,
    #[error("the body holds no XfccBasic call")]
    NoCall,
    #[error("unknown call `{0}`")]
    UnknownCall(String),
    #[error("`{name}` is not {what}: `{value}`")]
    BadValue {
        name: &'static str,
        what: &'static str,
        value: String,
    },
}

/// One parameter's name and text, as read.
struct Params(Vec<(String, String)>);

impl Params {
    fn text(&self, name: &str) -> &str {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map_or("", |(_, v)| v.as_str())
    }

    fn flag(&self, name: &'static str) -> Result<bool, RequestError> {
        match self.text(name).trim() {
            "" | "false" | "0" => Ok(false),
            "true" | "1" => Ok(true),
            other => Err(RequestError::BadValue {
                name,
                what: "a boolean",
                value: other.to_owned(),
            }),
        }
    }

    fn int<T: std::str::FromStr>(&self, name: &'static str) -> Result<T, RequestError> {
        let v = self.text(name).trim();
        v.parse().map_err(|_| RequestError::BadValue {
            name,
            what: "a number",
            value: v.to_owned(),
        })
    }

    fn credentials(&self) -> Credentials {
        Credentials {
            username: self.text("username").trim().to_owned(),
            password: self.text("password").to_owned(),
        }
    }
}

/// Reads a request body.
pub fn parse(body: &[u8]) -> Result<Call, RequestError> {
    let text = std::str::from_utf8(body).map_err(|_| RequestError::NotUtf8)?;
    let mut reader = NsReader::from_str(text);
    let mut path: Vec<(Option<bool>, String)> = Vec::new();
    let mut call: Option<String> = None;
    let mut params: Vec<(String, String)> = Vec::new();
    let mut value = String::new();
    let xml = |e: quick_xml::Error| RequestError::Xml(e.to_string());
    loop {
        let (ns, event) = reader.read_resolved_event().map_err(xml)?;
        let in_soap = match ns {
            ResolveResult::Bound(Namespace(n)) if n == SOAP_NS.as_bytes() => Some(true),
            ResolveResult::Bound(Namespace(n)) if n == NS.as_bytes() => Some(false),
            _ => None,
        };
        match event {
            Event::DocType(_) => return Err(RequestError::Doctype),
            Event::PI(_) => return Err(RequestError::ProcessingInstruction),
            Event::Start(_) | Event::Empty(_) if path.len() >= MAX_DEPTH => {
                return Err(RequestError::TooDeep);
            }
            Event::Start(ref e) | Event::Empty(ref e) => {
                let local = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
                let depth = path.len();
                let ok = match depth {
                    0 => in_soap == Some(true) && local == "Envelope",
                    1 => in_soap == Some(true),
                    _ => true,
                };
                if !ok {
                    return Err(RequestError::NotAnEnvelope);
                }
                let in_body = path.get(1).is_some_and(|(_, n)| n == "Body");
                if depth == 2 && in_body {
                    if in_soap == Some(false) {
                        call = Some(local.clone());
                    } else {
                        return Err(RequestError::UnknownCall(local));
                    }
                }
                value.clear();
                if matches!(event, Event::Start(_)) {
                    path.push((in_soap, local));
                } else if depth == 3 && in_body {
                    params.push((local, String::new()));
                }
            }
            Event::End(_) => {
                let Some((_, name)) = path.pop() else {
                    return Err(RequestError::NotAnEnvelope);
                };
                if path.len() == 3 && path[1].1 == "Body" {
                    params.push((name, std::mem::take(&mut value)));
                }
            }
            Event::Text(t) => {
                if path.len() == 4 {
                    let s = t.unescape().map_err(xml)?;
                    value.push_str(&s);
                } else {
                    // Whitespace between elements; anything else outside a
                    // parameter is still checked for unknown entities.
                    t.unescape().map_err(xml)?;
                }
            }
            Event::CData(c) => {
                if path.len() == 4 {
                    let s = std::str::from_utf8(&c).map_err(|_| RequestError::NotUtf8)?;
                    value.push_str(s);
                }
            }
            Event::Decl(_) | Event::Comment(_) => {}
            Event::Eof => break,
        }
    }
    if !path.is_empty() {
        return Err(RequestError::Xml("the envelope is not closed".into()));
    }
    let params = Params(params);
    match call.as_deref() {
        None => Err(RequestError::NoCall),
        Some("GetMyGames") => Ok(Call::GetMyGames(params.credentials())),
        Some("MakeAMove") => Ok(Call::MakeAMove(MakeAMove {
            credentials: params.credentials(),
            game_id: params.int("gameId")?,
            resign: params.flag("resign")?,
            accept_draw: params.flag("acceptDraw")?,
            movecount: params.int("movecount")?,
            my_move: params.text("myMove").trim().to_owned(),
            offer_draw: params.flag("offerDraw")?,
            claim_draw: params.flag("claimDraw")?,
            my_message: params.text("myMessage").trim().to_owned(),
        })),
        Some(other) => Err(RequestError::UnknownCall(other.to_owned())),
    }
}

/// XfccBasic's game result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    Ongoing,
    WhiteWins,
    BlackWins,
    Draw,
    WhiteWinAdjudicated,
    BlackWinAdjudicated,
    DrawAdjudicated,
    WhiteDefaulted,
    BlackDefaulted,
    BothDefaulted,
    Cancelled,
    AdjudicationPending,
}

impl GameResult {
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::Ongoing => "Ongoing",
            GameResult::WhiteWins => "WhiteWins",
            GameResult::BlackWins => "BlackWins",
            GameResult::Draw => "Draw",
            GameResult::WhiteWinAdjudicated => "WhiteWinAdjudicated",
            GameResult::BlackWinAdjudicated => "BlackWinAdjudicated",
            GameResult::DrawAdjudicated => "DrawAdjudicated",
            GameResult::WhiteDefaulted => "WhiteDefaulted",
            GameResult::BlackDefaulted => "BlackDefaulted",
            GameResult::BothDefaulted => "BothDefaulted",
            GameResult::Cancelled => "Cancelled",
            GameResult::AdjudicationPending => "AdjudicationPending",
        }
    }
}

/// The time left on one side's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeLeft {
    pub days: u32,
    pub hours: u32,
    pub minutes: u32,
}

/// One `XfccGame` as its player sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XfccGame {
    pub id: i64,
    pub white: String,
    pub black: String,
    pub event: String,
    pub site: String,
    pub my_turn: bool,
    pub has_white: bool,
    /// The player's and the opponent's clocks.
    pub clocks: (TimeLeft, TimeLeft),
    pub draw_offered: bool,
    /// PGN movetext in English SAN, without a result token.
    pub moves: String,
    /// The opponent's last note, if any.
    pub message: Option<String>,
    /// The start position of a game that does not start from the usual one.
    pub fen: Option<String>,
    pub result: GameResult,
    /// `YYYY-MM-DDT00:00:00`.
    pub event_date: String,
    pub time_control: Option<String>,
}

/// MakeAMove's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveResult {
    Success,
    ServerError,
    AuthenticationFailed,
    InvalidGameID,
    NotYourGame,
    NotYourTurn,
    InvalidMoveNumber,
    InvalidMove,
    NoDrawWasOffered,
    LostOnTime,
    YouAreOnLeave,
    MoveIsAmbiguous,
}

impl MoveResult {
    pub fn as_str(self) -> &'static str {
        match self {
            MoveResult::Success => "Success",
            MoveResult::ServerError => "ServerError",
            MoveResult::AuthenticationFailed => "AuthenticationFailed",
            MoveResult::InvalidGameID => "InvalidGameID",
            MoveResult::NotYourGame => "NotYourGame",
            MoveResult::NotYourTurn => "NotYourTurn",
            MoveResult::InvalidMoveNumber => "InvalidMoveNumber",
            MoveResult::InvalidMove => "InvalidMove",
            MoveResult::NoDrawWasOffered => "NoDrawWasOffered",
            MoveResult::LostOnTime => "LostOnTime",
            MoveResult::YouAreOnLeave => "YouAreOnLeave",
            MoveResult::MoveIsAmbiguous => "MoveIsAmbiguous",
        }
    }
}

const HEAD: &str = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\
<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\" \
xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"><soap:Body>";
const TAIL: &str = "</soap:Body></soap:Envelope>";

fn flag(b: bool) -> &'static str {
    if b { "true" } else { "false" }
}

fn element(out: &mut String, name: &str, text: &str) {
    out.push('<');
    out.push_str(name);
    out.push('>');
    out.push_str(&escape(text));
    out.push_str("</");
    out.push_str(name);
    out.push('>');
}

/// GetMyGames' answer.
pub fn games_response(games: &[XfccGame]) -> String {
    let mut out = String::with_capacity(512 + games.len() * 1024);
    out.push_str(HEAD);
    out.push_str("<GetMyGamesResponse xmlns=\"");
    out.push_str(NS);
    out.push_str("\"><GetMyGamesResult>");
    for g in games {
        out.push_str("<XfccGame>");
        element(&mut out, "id", &g.id.to_string());
        element(&mut out, "white", &g.white);
        element(&mut out, "black", &g.black);
        element(&mut out, "event", &g.event);
        element(&mut out, "site", &g.site);
        element(&mut out, "myTurn", flag(g.my_turn));
        element(&mut out, "hasWhite", flag(g.has_white));
        // The order of the WSDL's sequence: schema-driven clients (zeep,
        // .NET) read the children in that order.
        let (mine, theirs) = g.clocks;
        for (side, t) in [("Player", mine), ("Opponent", theirs)] {
            element(&mut out, &format!("days{side}"), &t.days.to_string());
            element(&mut out, &format!("hours{side}"), &t.hours.to_string());
            element(&mut out, &format!("minutes{side}"), &t.minutes.to_string());
        }
        element(&mut out, "moves", &g.moves);
        element(&mut out, "drawOffered", flag(g.draw_offered));
        element(&mut out, "result", g.result.as_str());
        if let Some(m) = &g.message {
            element(&mut out, "message", m);
        }
        element(&mut out, "setup", flag(g.fen.is_some()));
        if let Some(fen) = &g.fen {
            element(&mut out, "fen", fen);
        }
        element(&mut out, "eventDate", &g.event_date);
        if let Some(tc) = &g.time_control {
            element(&mut out, "timeControl", tc);
        }
        out.push_str("</XfccGame>");
    }
    out.push_str("</GetMyGamesResult></GetMyGamesResponse>");
    out.push_str(TAIL);
    out
}

/// MakeAMove's answer.
pub fn move_response(result: MoveResult) -> String {
    format!(
        "{HEAD}<MakeAMoveResponse xmlns=\"{NS}\"><MakeAMoveResult>{}</MakeAMoveResult></MakeAMoveResponse>{TAIL}",
        result.as_str()
    )
}

/// Who is at fault, as SOAP 1.1 says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultCode {
    Client,
    Server,
}

/// A SOAP fault (answered with HTTP 500, as SOAP 1.1 asks).
pub fn fault(code: FaultCode, text: &str) -> String {
    let code = match code {
        FaultCode::Client => "soap:Client",
        FaultCode::Server => "soap:Server",
    };
    format!(
        "{HEAD}<soap:Fault><faultcode>{code}</faultcode><faultstring>{}</faultstring><detail /></soap:Fault>{TAIL}",
        escape(text)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn envelope(body: &str) -> String {
        format!(
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>\
             <soap:Envelope xmlns:soap=\"{SOAP_NS}\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\
             <soap:Body>{body}</soap:Body></soap:Envelope>"
        )
    }

    #[test]
    fn get_my_games_is_read_with_its_credentials() {
        let xml = envelope(&format!(
            "<GetMyGames xmlns=\"{NS}\"><username>anna@x.example</username>\
             <password>p&amp;ss&#x21;</password></GetMyGames>"
        ));
        let call = parse(xml.as_bytes()).unwrap();
        assert_eq!(
            call,
            Call::GetMyGames(Credentials {
                username: "anna@x.example".into(),
                password: "p&ss!".into(),
            })
        );
    }

    #[test]
    fn make_a_move_is_read_with_any_prefix_and_missing_flags_false() {
        let xml = format!(
            "<s:Envelope xmlns:s=\"{SOAP_NS}\"><s:Header/><s:Body>\
             <x:MakeAMove xmlns:x=\"{NS}\"><x:username>a@b.c</x:username><x:password>pw</x:password>\
             <x:gameId>17</x:gameId><x:resign>false</x:resign><x:movecount>12</x:movecount>\
             <x:myMove>Nf3</x:myMove><x:offerDraw>true</x:offerDraw><x:myMessage>good luck &lt;3</x:myMessage>\
             </x:MakeAMove></s:Body></s:Envelope>"
        );
        let Call::MakeAMove(m) = parse(xml.as_bytes()).unwrap() else {
            panic!("not MakeAMove");
        };
        assert_eq!(m.game_id, 17);
        assert_eq!(m.movecount, 12);
        assert_eq!(m.my_move, "Nf3");
        assert!(m.offer_draw && !m.resign && !m.accept_draw && !m.claim_draw);
        assert_eq!(m.my_message, "good luck <3");
        assert_eq!(m.credentials.password, "pw");
    }

    #[test]
    fn a_doctype_is_refused_before_any_entity_is_defined_or_used() {
        let billion = "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">\
            <!ENTITY lol2 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">]>\
            <soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body>\
            <GetMyGames xmlns=\"http://www.bennedik.com/webservices/XfccBasic\">\
            <username>&lol2;</username><password>x</password></GetMyGames></soap:Body></soap:Envelope>";
        assert_eq!(parse(billion.as_bytes()), Err(RequestError::Doctype));
        let xxe = "<!DOCTYPE foo [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]><foo>&xxe;</foo>";
        assert_eq!(parse(xxe.as_bytes()), Err(RequestError::Doctype));
    }

    #[test]
    fn an_undefined_entity_is_an_error_not_text() {
        let xml = envelope(&format!(
            "<GetMyGames xmlns=\"{NS}\"><username>&xxe;</username><password>x</password></GetMyGames>"
        ));
        assert!(matches!(parse(xml.as_bytes()), Err(RequestError::Xml(_))));
    }

    #[test]
    fn malformed_and_foreign_requests_are_errors() {
        assert!(matches!(
            parse(b"<a><b></a>"),
            Err(RequestError::Xml(_)) | Err(RequestError::NotAnEnvelope)
        ));
        assert_eq!(parse(b"<Envelope/>"), Err(RequestError::NotAnEnvelope));
        assert_eq!(parse(b"\xff\xfe"), Err(RequestError::NotUtf8));
        assert_eq!(parse(envelope("").as_bytes()), Err(RequestError::NoCall));
        let other = envelope(&format!("<GetServerInfo xmlns=\"{NS}\"/>"));
        assert_eq!(
            parse(other.as_bytes()),
            Err(RequestError::UnknownCall("GetServerInfo".into()))
        );
        let unclosed = format!("<soap:Envelope xmlns:soap=\"{SOAP_NS}\"><soap:Body>");
        assert!(matches!(
            parse(unclosed.as_bytes()),
            Err(RequestError::Xml(_))
        ));
        let bad = envelope(&format!(
            "<MakeAMove xmlns=\"{NS}\"><gameId>x1</gameId><movecount>1</movecount></MakeAMove>"
        ));
        assert!(matches!(
            parse(bad.as_bytes()),
            Err(RequestError::BadValue { name: "gameId", .. })
        ));
        let pi = format!("<?evil x?>{}", envelope(""));
        assert_eq!(
            parse(pi.as_bytes()),
            Err(RequestError::ProcessingInstruction)
        );
    }

    #[test]
    fn deep_nesting_is_refused() {
        let deep = format!(
            "<soap:Envelope xmlns:soap=\"{SOAP_NS}\"><soap:Header>{}{}</soap:Header></soap:Envelope>",
            "<a>".repeat(50),
            "</a>".repeat(50)
        );
        assert_eq!(parse(deep.as_bytes()), Err(RequestError::TooDeep));
    }

    #[test]
    fn the_games_answer_has_the_asmx_shape_with_lowercase_booleans() {
        let g = XfccGame {
            id: 3,
            white: "Anna <a>".into(),
            black: "Ben".into(),
            event: "Club".into(),
            site: "club.example".into(),
            my_turn: true,
            has_white: false,
            clocks: (
                TimeLeft {
                    days: 40,
                    hours: 0,
                    minutes: 0,
                },
                TimeLeft {
                    days: 38,
                    hours: 0,
                    minutes: 0,
                },
            ),
            draw_offered: false,
            moves: "1.e4 e5".into(),
            message: None,
            fen: None,
            result: GameResult::Ongoing,
            event_date: "2026-11-29T00:00:00".into(),
            time_control: Some("10/4320000".into()),
        };
        let xml = games_response(&[g]);
        assert!(
            xml.starts_with("<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=")
        );
        assert!(xml.contains(
            "<soap:Body><GetMyGamesResponse xmlns=\"http://www.bennedik.com/webservices/XfccBasic\">\
             <GetMyGamesResult><XfccGame><id>3</id><white>Anna &lt;a&gt;</white><black>Ben</black>\
             <event>Club</event><site>club.example</site><myTurn>true</myTurn><hasWhite>false</hasWhite>\
             <daysPlayer>40</daysPlayer><hoursPlayer>0</hoursPlayer><minutesPlayer>0</minutesPlayer>\
             <daysOpponent>38</daysOpponent><hoursOpponent>0</hoursOpponent><minutesOpponent>0</minutesOpponent>\
             <moves>1.e4 e5</moves><drawOffered>false</drawOffered><result>Ongoing</result>\
             <setup>false</setup><eventDate>2026-11-29T00:00:00</eventDate>\
             <timeControl>10/4320000</timeControl></XfccGame></GetMyGamesResult></GetMyGamesResponse>\
             </soap:Body></soap:Envelope>"
        ));
    }

    #[test]
    fn move_answers_and_faults_are_written_as_asmx_writes_them() {
        let ok = move_response(MoveResult::InvalidMoveNumber);
        assert!(ok.contains(
            "<soap:Body><MakeAMoveResponse xmlns=\"http://www.bennedik.com/webservices/XfccBasic\">\
             <MakeAMoveResult>InvalidMoveNumber</MakeAMoveResult></MakeAMoveResponse></soap:Body>"
        ));
        let f = fault(FaultCode::Client, "AuthenticationFailed");
        assert!(f.contains(
            "<soap:Fault><faultcode>soap:Client</faultcode><faultstring>AuthenticationFailed</faultstring>"
        ));
    }

    proptest::proptest! {
        /// Any bytes get an answer (a call or an error), never a panic.
        #[test]
        fn any_bytes_are_answered_without_a_panic(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..2048)
        ) {
            // The property is that this returns at all, whatever it says.
            let _answer = parse(&bytes);
        }

        /// Any printable password, escaped as a client escapes it, reads
        /// back as it was typed.
        #[test]
        fn any_password_reads_back_as_typed(password in "\\PC{0,64}") {
            let xml = envelope(&format!(
                "<GetMyGames xmlns=\"{NS}\"><username>a@b.c</username><password>{}</password></GetMyGames>",
                escape(password.as_str())
            ));
            let call = parse(xml.as_bytes()).unwrap();
            proptest::prop_assert_eq!(&call.credentials().password, &password);
        }
    }

    #[test]
    fn credentials_never_show_the_password_in_debug_output() {
        let c = Credentials {
            username: "a@b.c".into(),
            password: "hunter2".into(),
        };
        assert!(!format!("{c:?}").contains("hunter2"));
    }
}
