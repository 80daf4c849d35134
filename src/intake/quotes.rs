//! Where a quoted earlier message starts in a reply's plain text: attribution
//! lines ("On … wrote:" in many languages and client styles), header blocks
//! (`From:/Sent:/To:`, `От:/Отправлено:/Кому:` …) and separator lines
//! (`-----Original Message-----` and its translations). [pure: no IO]
//!
//! The wording comes from what real clients send (Gmail, Outlook, Apple Mail
//! and iOS, Thunderbird, Yahoo, Zoho, Yandex, Mail.ru, Polymail, Samsung and
//! other Android mailers) in the languages of ICCF's server plus the
//! Scandinavian ones. Matching is by shape, not by exact format: a line is an
//! attribution when it ends like one (a colon, or a dash frame) and holds a
//! "wrote" verb, or — for the clients that write none (Gmail in Russian,
//! Japanese, Czech; Yandex; Mail.ru) — a date or time and an address just
//! before the colon. Dates and times in these lines are never read as moves,
//! because the whole line is cut away with the quote.

/// Longest attribution (joined over its lines) that is still considered one.
const MAX_ATTRIBUTION: usize = 400;
/// Openers tried when looking for the player's text before an attribution on
/// the same line.
const MAX_OWN_TEXT_TRIES: usize = 4;
/// Clients wrap an attribution over at most this many lines.
const MAX_ATTRIBUTION_LINES: usize = 4;

/// "wrote" and its translations, lower-case. A Latin-script verb must stand as
/// a word (not inside a longer one); the others are matched anywhere.
#[rustfmt::skip]
const VERBS: &[&str] = &[
    // English
    "wrote", "writes",
    // German (Yahoo: "hat … Folgendes geschrieben")
    "schrieb", "geschrieben",
    // French
    "a écrit", "écrit",
    // Spanish
    "escribió",
    // Italian
    "ha scritto", "scritto",
    // Dutch (Apple Mail: "heeft … het volgende geschreven")
    "schreef", "geschreven",
    // Portuguese
    "escreveu",
    // Polish
    "napisał", "napisała", "napisana", "pisze",
    // Czech
    "napsal", "napsala", "napsal(a)",
    // Russian
    "написал", "написала", "пишет",
    // Finnish
    "kirjoitti",
    // Croatian
    "napisao", "napisala",
    // Danish, Norwegian, Swedish
    "skrev",
    // Japanese (Apple Mail, Thunderbird), Chinese, Korean
    "のメッセージ", "のメール", "書きました", "写道", "寫道", "작성",
    // A few neighbours: Slovak, Slovenian, Ukrainian, Hungarian, Romanian,
    // Turkish, Catalan, Estonian
    "napísal", "napísala", "napisal", "написав", "написала", "пише", "írta", "a scris",
    "yazdı", "va escriure", "kirjutas", "đã viết", "έγραψε",
];

/// Words an attribution starts with ("On …", "Am …", "W dniu …").
#[rustfmt::skip]
const OPENERS: &[&str] = &[
    "on", "am", "le", "el", "il", "il giorno", "på", "vào", "in data", "op", "em", "den", "w dniu",
    "dnia", "dne", "dana", "wiadomość napisana przez",
];

/// "Original message", "Forwarded message" and their translations, as they
/// stand between dashes (`-----Original Message-----`, Android's
/// `-------- Исходное сообщение --------`).
#[rustfmt::skip]
const SEPARATOR_PHRASES: &[&str] = &[
    "original message", "forwarded message", "reply message", "original email",
    "ursprüngliche nachricht", "weitergeleitete nachricht", "original-nachricht",
    "originalnachricht",
    "message d'origine", "message d’origine", "message original", "message transféré",
    "mensaje original", "mensaje reenviado",
    "messaggio originale", "messaggio inoltrato",
    "oorspronkelijk bericht", "origineel bericht", "doorgestuurd bericht",
    "mensagem original", "mensagem encaminhada",
    "oryginalna wiadomość", "wiadomość oryginalna", "przekazana wiadomość",
    "wiadomość przekazana",
    "původní zpráva", "přeposlaná zpráva", "původní e-mail",
    "исходное сообщение", "пересылаемое сообщение", "пересланное сообщение",
    "оригинальное сообщение", "исходное письмо",
    "alkuperäinen viesti", "välitetty viesti",
    "izvorna poruka", "originalna poruka", "proslijeđena poruka",
    "元のメッセージ", "オリジナルメッセージ", "転送メッセージ", "転送されたメッセージ",
    "oprindelig meddelelse", "oprindelig besked", "videresendt meddelelse",
    "videresendt besked",
    "opprinnelig melding", "original melding", "videresendt melding",
    "ursprungligt meddelande", "originalmeddelande", "vidarebefordrat meddelande",
];

/// Lines that open a forwarded message on their own (Apple Mail and its
/// translations), matched at the start of the lower-cased line.
#[rustfmt::skip]
const FORWARD_OPENERS: &[&str] = &[
    "begin forwarded message", "anfang der weitergeleiteten", "début du message réexpédié",
    "début du message réenvoyé", "inicio del mensaje reenviado", "inizio messaggio inoltrato",
    "begin doorgestuurd bericht", "início da mensagem reencaminhada",
    "początek przekazywanej wiadomości", "začátek přeposlané zprávy",
    "начало переадресованного сообщения", "välitetty viesti alkaa",
    "početak prosljeđene poruke", "転送されたメッセージ", "start på videresendt",
    "videresendt melding", "vidarebefordrat mejl",
];

/// Header names that open a quoted header block: "From" in each language
/// (Outlook, Windows Mail, Android, Apple Mail's forwards).
#[rustfmt::skip]
const BLOCK_FROM: &[&str] = &[
    "from", "von", "de", "da", "van", "från", "fra", "od", "от", "lähettäjä", "šalje",
    "差出人", "送信者", "afzender", "remetente", "发件人", "寄件者", "보낸 사람",
];

/// Header names that follow it within a few lines: sent/date, to, subject, cc.
#[rustfmt::skip]
const BLOCK_NEXT: &[&str] = &[
    // English
    "sent", "date", "to", "subject", "cc",
    // German
    "gesendet", "datum", "an", "betreff",
    // French
    "envoyé", "à", "objet",
    // Spanish
    "enviado", "enviado el", "para", "asunto", "fecha",
    // Italian
    "inviato", "data", "a", "oggetto",
    // Dutch
    "verzonden", "aan", "onderwerp",
    // Portuguese
    "enviada em", "enviado em", "assunto",
    // Polish
    "wysłane", "wysłano", "do", "temat", "dw",
    // Czech
    "odesláno", "komu", "předmět", "kopie",
    // Russian
    "отправлено", "дата", "кому", "тема", "копия",
    // Finnish
    "lähetetty", "päivämäärä", "vastaanottaja", "aihe", "kopio",
    // Croatian
    "poslano", "prima", "predmet", "za",
    // Japanese, Chinese, Korean
    "送信日時", "日付", "宛先", "件名", "发送时间", "收件人", "主题", "日期", "寄件日期",
    "收件者", "主旨", "보낸 날짜", "받는 사람", "제목",
    // Danish, Norwegian, Swedish
    "sendt", "dato", "til", "emne", "skickat", "till", "ämne", "kopia",
];

/// A separator line after which everything is an earlier message.
pub(super) fn is_separator(trimmed: &str) -> bool {
    let lower = trimmed.to_lowercase();
    let framed = ["--", "__", "==", "**"]
        .iter()
        .any(|p| lower.starts_with(p));
    if framed {
        let inner = lower.trim_matches(|c: char| matches!(c, '-' | '_' | '=' | '*' | ' '));
        if SEPARATOR_PHRASES.iter().any(|s| inner.contains(s)) {
            return true;
        }
        // Outlook's bare underscore rule before its header block.
        if lower.chars().count() >= 20 && lower.chars().all(|c| c == '_') {
            return true;
        }
    }
    FORWARD_OPENERS.iter().any(|s| lower.starts_with(s))
}

/// GroupWise's `>>> Ben <ben@example.net> 12.05.2024 17:45 >>>`, after which
/// the quote is not marked.
pub(super) fn is_groupwise_header(trimmed: &str) -> bool {
    trimmed.len() <= MAX_ATTRIBUTION
        && trimmed.starts_with(">>>")
        && trimmed.ends_with(">>>")
        && trimmed.len() > 6
        && (trimmed.contains('@') || has_date(trimmed))
}

/// `From:` (or `От:`, `Fra:` …) followed within three lines by another header
/// of the block (`Sent:`, `Отправлено:`, `Sendt:` …); or a block that puts
/// another header first (GMX and web.de start with `Gesendet:`, Huawei with
/// `Subject:`) when three of its four lines are headers and one is `From:`.
pub(super) fn is_header_block(lines: &[&str], i: usize) -> bool {
    let Some(name) = header_name(lines[i].trim()) else {
        return false;
    };
    let window = i + 1..lines.len().min(i + 4);
    if BLOCK_FROM.contains(&name.as_str()) {
        return window.clone().any(|j| {
            header_name(lines[j].trim()).is_some_and(|n| BLOCK_NEXT.contains(&n.as_str()))
        });
    }
    if !BLOCK_NEXT.contains(&name.as_str()) {
        return false;
    }
    let names: Vec<String> = window
        .filter_map(|j| header_name(lines[j].trim()))
        .collect();
    let from = names.iter().any(|n| BLOCK_FROM.contains(&n.as_str()));
    let others = names
        .iter()
        .filter(|n| BLOCK_FROM.contains(&n.as_str()) || BLOCK_NEXT.contains(&n.as_str()))
        .count();
    from && others >= 2
}

/// An attribution in words wildt does not know (`… Ben <ben@example.net> ने
/// लिखा:`), recognised by its place and shape: a line ending in a colon, holding
/// a date or an address outside a link, with a `>`-quote starting on the next
/// line or after one blank line. Only the line itself is dropped; the quote is
/// dropped line by line, and a reply below it is kept.
pub(super) fn introduces_quote(lines: &[&str], i: usize) -> bool {
    let t = super::boundary::trim_visible(lines[i]);
    if t.len() > MAX_ATTRIBUTION || !t.ends_with([':', '：']) {
        return false;
    }
    let quoted = |j: usize| {
        lines
            .get(j)
            .is_some_and(|l| l.trim_start().starts_with('>'))
    };
    let blank = |j: usize| lines.get(j).is_some_and(|l| l.trim().is_empty());
    if !(quoted(i + 1) || blank(i + 1) && quoted(i + 2)) {
        return false;
    }
    let unlinked = super::boundary::without_links(t);
    has_date(&unlinked) || super::boundary::has_address(&unlinked)
}

/// `From: x` -> `from`; `*Von:* x` (bold turned to text) -> `von`; `De : x` ->
/// `de`; `Enviado el: x` -> `enviado el`. Only letters and inner spaces count.
fn header_name(trimmed: &str) -> Option<String> {
    let end = trimmed.find([':', '：'])?;
    let name = trimmed[..end]
        .trim()
        .trim_start_matches('*')
        .trim_end_matches('*')
        .trim();
    if name.is_empty()
        || name.chars().count() > 20
        || !name.chars().all(|c| c.is_alphabetic() || c == ' ')
    {
        return None;
    }
    Some(name.to_lowercase())
}

/// If an attribution starts at line `i`, how many lines it spans (clients wrap
/// it over up to four; Polymail and Gmail may push the end of the address,
/// `> wrote:`, onto a line that looks quoted).
pub(super) fn attribution_len(lines: &[&str], i: usize) -> Option<usize> {
    let first = lines[i].trim();
    if first.is_empty() || first.len() > MAX_ATTRIBUTION {
        return None;
    }
    let n = joined_attribution(lines, i)?;
    if n > 1 {
        let first = first.to_lowercase();
        if !(starts_with_opener(&first) || has_date(&first) || has_verb(&first)) {
            return None;
        }
        // "13. 5254\nOn … wrote:" with no blank line between: the attribution
        // starts on the later line, and the move before it is the player's.
        for k in 1..n {
            let later = lines[i + k].trim().to_lowercase();
            if (starts_with_opener(&later) || has_date(&later))
                && joined_attribution(&lines[..i + n], i + k) == Some(n - k)
            {
                return None;
            }
        }
    }
    Some(n)
}

/// The fewest lines from `i` that join into an attribution. Polymail writes
/// `On <date> X`, a blank line, `<`, `mailto:X <addr>`, `> wrote:`: one blank
/// line after a dated opening line is skipped, and a `>`-line that only ends
/// the address or holds the verb belongs to the attribution.
fn joined_attribution(lines: &[&str], i: usize) -> Option<usize> {
    let mut joined = String::new();
    let mut blank_skipped = false;
    for (n, line) in lines
        .iter()
        .skip(i)
        .take(MAX_ATTRIBUTION_LINES + 1)
        .enumerate()
    {
        let t = line.trim();
        if t.is_empty() {
            if n == 1 && !blank_skipped && starts_with_opener(&joined) && has_date(&joined) {
                blank_skipped = true;
                continue;
            }
            return None;
        }
        if n - usize::from(blank_skipped) >= MAX_ATTRIBUTION_LINES {
            return None;
        }
        if t.starts_with(['>', '|']) && !(n > 0 && (open_angle(&joined) || only_verb(t))) {
            return None;
        }
        // A move on a line of its own (`13. 5254`) is the player's, never a
        // piece of a wrapped attribution.
        if move_shaped(t) {
            return None;
        }
        if !joined.is_empty() {
            joined.push(' ');
        }
        joined.push_str(&t.to_lowercase());
        if joined.len() > MAX_ATTRIBUTION {
            return None;
        }
        if is_attribution(&joined) {
            return Some(n + 1);
        }
        // A line that ends like an attribution and is none is not the start
        // of a wrapped one ("Ben wrote a post <link> about it:").
        if t.ends_with([':', '：']) {
            return None;
        }
    }
    None
}

/// No letters, and four or five digits from 1 to 8 in a row (`13. 5254`,
/// `12... 37461`): a move's shape. Dates hold a 0 or a 9 (`12.05.2024`), and
/// times have no four digits in a row.
fn move_shaped(t: &str) -> bool {
    if t.chars().any(char::is_alphabetic) {
        return false;
    }
    t.split(|c: char| !c.is_ascii_digit())
        .any(|run| (4..=5).contains(&run.len()) && run.bytes().all(|b| (b'1'..=b'8').contains(&b)))
}

/// `> wrote:`: a quoted-looking line holding nothing but the verb.
fn only_verb(t: &str) -> bool {
    let rest = t
        .trim_start_matches(['>', '|', ' '])
        .trim_end_matches([':', '：', ' '])
        .to_lowercase();
    VERBS.contains(&rest.as_str())
}

/// Where, in an attribution line, text the player wrote on the same line ends:
/// `13. 5254 On Sun, … wrote:` -> the offset of `On`. `None` when the line
/// starts with the attribution.
pub(super) fn own_text_before(lines: &[&str], i: usize, n: usize) -> Option<usize> {
    let line = lines[i];
    if starts_with_opener(&line.to_lowercase()) {
        return None;
    }
    let rest: Vec<&str> = lines[i + 1..i + n].to_vec();
    line.char_indices()
        .skip(1)
        .filter(|&(p, _)| line[..p].ends_with([' ', '\t', '-']))
        .map(|(p, _)| p)
        .filter(|&p| {
            let start: String = line[p..].chars().take(24).collect();
            starts_with_opener(&start.to_lowercase())
        })
        // A few tries: the player's own text on the line is short.
        .take(MAX_OWN_TEXT_TRIES)
        .find(|&p| {
            let head = line[p..].to_lowercase();
            let mut joined = head;
            for r in &rest {
                joined.push(' ');
                joined.push_str(&r.trim().to_lowercase());
            }
            is_attribution(&joined)
        })
}

/// An address opened with `<` and not yet closed: the next line ends it.
fn open_angle(s: &str) -> bool {
    s.rfind('<')
        .is_some_and(|o| s.rfind('>').is_none_or(|c| c < o))
}

/// A whole attribution, lower-cased.
fn is_attribution(lower: &str) -> bool {
    let s = lower.trim();
    // Zoho `---- On … wrote ----`, `------On …, X wrote-----`.
    let dashes_before = s.len() - s.trim_start_matches('-').len();
    let dashes_after = s.len() - s.trim_end_matches('-').len();
    let framed = dashes_before >= 2 && dashes_after >= 2 && s.len() > dashes_before;
    let s = s.trim_matches('-').trim();
    let (body, colon) = match s.strip_suffix([':', '：']) {
        Some(b) => (b.trim_end(), true),
        None => (s, false),
    };
    // Only a line ending in a colon, a dash frame or the verb can be one; the
    // cheap test first keeps long texts linear with a small factor.
    if body.is_empty() || !(colon || framed || ends_with_verb(body)) {
        return false;
    }
    // An attribution names a date and a person, never a web page: a line
    // with a link (whose path may hold a date, `…/posts/2017-02-18-how-to`)
    // is the player's prose.
    if body.split_whitespace().any(super::boundary::is_link) {
        return false;
    }
    let verb = has_verb(body);
    let date = has_date(body);
    let at = body.contains('@');
    if colon && verb {
        return date || at || body.chars().count() <= 60;
    }
    // Zoho's and Android's `---- Ben wrote ----` need no date.
    if framed && verb {
        return true;
    }
    // "On … wrote" without a colon.
    if !colon && verb && date && starts_with_opener(body) && ends_with_verb(body) {
        return true;
    }
    // No verb at all: "вс, 12 мая 2024 г. в 17:45, Ben <ben@example.net>:",
    // "2024-05-12 17:45 GMT+02:00 Ben <ben@example.net>:" (Gmail), Yandex,
    // Mail.ru ("… от Ben <ben@example.net>:").
    colon && date && ends_with_address(body)
}

fn starts_with_opener(lower: &str) -> bool {
    let s = lower.trim_start_matches(['-', '>', ' ']);
    OPENERS.iter().any(|o| {
        s.strip_prefix(o)
            .is_some_and(|rest| rest.starts_with([' ', ',']))
    })
}

fn has_verb(lower: &str) -> bool {
    VERBS.iter().any(|v| find_word(lower, v).is_some())
}

fn ends_with_verb(lower: &str) -> bool {
    let s = lower.trim_end_matches(['.', ' ', '-']);
    VERBS.iter().any(|v| {
        s.strip_suffix(v).is_some_and(|before| {
            !before
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphabetic() && !is_cjk(c))
        })
    })
}

/// Byte offset of `word` in `hay` where it is not part of a longer Latin or
/// Cyrillic word.
fn find_word(hay: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(off) = hay.get(from..)?.find(word) {
        let at = from + off;
        let before = hay[..at].chars().next_back();
        let after = hay[at + word.len()..].chars().next();
        let letter = |c: Option<char>| c.is_some_and(|c| c.is_alphabetic() && !is_cjk(c));
        let first_is_cjk = word.chars().next().is_some_and(is_cjk);
        if first_is_cjk || (!letter(before) && !letter(after)) {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

/// Kana, CJK ideographs, Hangul and full-width forms: scripts written without
/// spaces between words.
fn is_cjk(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30ff}' | '\u{3400}'..='\u{9fff}' | '\u{ac00}'..='\u{d7af}' | '\u{ff00}'..='\u{ffef}')
}

/// A year (19xx, 20xx: never a move, as 9 and 0 are no file or rank) or a
/// time of day (`17:45`, `17.45`).
pub(super) fn has_date(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let run = &s[start..i];
        let glued_before = start > 0 && b[start - 1].is_ascii_alphanumeric();
        if run.len() == 4 && (run.starts_with("19") || run.starts_with("20")) && !glued_before {
            return true;
        }
        // hh:mm or hh.mm, not a longer number ("13.5254" is a numbered move).
        if (1..=2).contains(&run.len()) && matches!(b.get(i), Some(b':' | b'.')) {
            let m = i + 1;
            let mut e = m;
            while e < b.len() && b[e].is_ascii_digit() {
                e += 1;
            }
            if e - m == 2 {
                return true;
            }
        }
    }
    false
}

/// `… Ben <ben@example.net>`, `… "Ben" <ben@example.net>`, `… ben@example.net`,
/// `… (ben@example.net)`.
fn ends_with_address(body: &str) -> bool {
    let last = body.rsplit(' ').next().unwrap_or(body);
    let last = last.trim_matches(['<', '>', '(', ')', '[', ']', '"', ',']);
    last.contains('@') && !last.starts_with('@') && !last.ends_with('@')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attribution(text: &str) -> Option<usize> {
        let lines: Vec<&str> = text.lines().collect();
        attribution_len(&lines, 0)
    }

    /// Attribution lines as clients write them, one per client and language.
    #[rustfmt::skip]
    const ATTRIBUTIONS: &[&str] = &[
        // Gmail
        "On Sun, 12 May 2024 at 17:45, Ben Miller <ben@example.net> wrote:",
        "On Sun, May 12, 2024 at 5:45 PM Ben Miller <ben@example.net> wrote:",
        "Am So., 12. Mai 2024 um 17:45 Uhr schrieb Ben Miller <ben@example.net>:",
        "Le dim. 12 mai 2024 à 17:45, Ben Miller <ben@example.net> a écrit :",
        "El dom, 12 may 2024 a las 17:45, Ben Miller (<ben@example.net>) escribió:",
        "Il giorno dom 12 mag 2024 alle ore 17:45 Ben Miller <ben@example.net> ha scritto:",
        "Op zo 12 mei 2024 om 17:45 schreef Ben Miller <ben@example.net>:",
        "Em dom., 12 de mai. de 2024 às 17:45, Ben Miller <ben@example.net> escreveu:",
        "niedz., 12 maj 2024 o 17:45 Ben Miller <ben@example.net> napisał(a):",
        "ne 12. 5. 2024 v 17:45 odesílatel Ben Miller <ben@example.net> napsal:",
        "вс, 12 мая 2024 г. в 17:45, Ben Miller <ben@example.net>:",
        "su 12.5.2024 klo 17.45 Ben Miller (ben@example.net) kirjoitti:",
        "ned, 12. svi 2024. u 17:45 Ben Miller <ben@example.net> napisao je:",
        "2024年5月12日(日) 17:45 Ben Miller <ben@example.net>:",
        "søn. 12. maj 2024 kl. 17.45 skrev Ben Miller <ben@example.net>:",
        "ons. 15. marts 2017 kl. 11.00 skrev Ben Miller <ben@example.net>:",
        "søn. 12. mai 2024 kl. 17:45 skrev Ben Miller <ben@example.net>:",
        "sön 12 maj 2024 kl 17:45 skrev Ben Miller <ben@example.net>:",
        "2024-05-12 17:45 GMT+02:00 Ben Miller <ben@example.net>:",
        "On Sun, May 12, 2024 at 5:45 PM Ben Miller <ben@example.net> wrote",
        // Apple Mail, iOS
        "On 12 May 2024, at 17:45, Ben Miller <ben@example.net> wrote:",
        "Am 12.05.2024 um 17:45 schrieb Ben Miller <ben@example.net>:",
        "Op 12 mei 2024, om 17:45 heeft Ben Miller <ben@example.net> het volgende geschreven:",
        "Il giorno 12 mag 2024, alle ore 17:45, Ben Miller <ben@example.net> ha scritto:",
        "Em 12 de mai. de 2024, à(s) 17:45, Ben Miller <ben@example.net> escreveu:",
        "Den 12. maj 2024 kl. 17.45 skrev Ben Miller <ben@example.net>:",
        "12. mai 2024 kl. 17:45 skrev Ben Miller <ben@example.net>:",
        "Ben Miller <ben@example.net> kirjoitti 12.5.2024 kello 17.45:",
        "Wiadomość napisana przez Ben Miller <ben@example.net> w dniu 12.05.2024, o godz. 17:45:",
        "12 мая 2024 г., в 17:45, Ben Miller <ben@example.net> написал(а):",
        "12. 5. 2024 v 17:45, Ben Miller <ben@example.net>:",
        "2024/05/12 17:45、Ben Miller <ben@example.net>のメール:",
        "12. svi 2024. u 17:45, Ben Miller <ben@example.net> je napisao/la:",
        // Thunderbird
        "On 12.05.24 17:45, Ben Miller wrote:",
        "W dniu 12.05.2024 o 17:45, Ben Miller pisze:",
        "Dne 12. 05. 24 v 17:45 Ben Miller napsal(a):",
        "12.05.2024 17:45, Ben Miller пишет:",
        "2024/05/12 17:45 に Ben Miller さんは書きました:",
        // Yahoo
        "On Sunday, May 12, 2024 at 05:45:00 PM GMT+2, Ben Miller <ben@example.net> wrote:",
        "Am Sonntag, 12. Mai 2024 um 17:45:00 MESZ hat Ben Miller <ben@example.net> Folgendes geschrieben:",
        // Zoho and relatives
        "---- On Sun, 12 May 2024 17:45:00 +0200 Ben Miller <ben@example.net> wrote ----",
        "------On Sun, 12 May 2024 17:45, Ben Miller wrote-----",
        // Yandex, Mail.ru
        "12.05.2024, 17:45, \"Ben Miller\" <ben@example.net>:",
        "Воскресенье, 12 мая 2024, 17:45 +03:00 от Ben Miller <ben@example.net>:",
        "Sunday, 12 May 2024, 17:45 +03:00 from Ben Miller <ben@example.net>:",
        // Other clients and neighbouring languages
        "12 May 2024, 17:45 by ben@example.net:",
        "Dnia 12 maja 2024 17:45 Ben Miller <ben@example.net> napisał(a):",
        "在 2024年5月12日 17:45，Ben Miller <ben@example.net> 写道：",
        "2024년 5월 12일 (일) 오후 5:45, Ben Miller <ben@example.net>님이 작성:",
        "Ben Miller <ben@example.net> ezt írta (időpont: 2024. máj. 12., V, 17:45):",
        "Pe dum., 12 mai 2024 la 17:45, Ben Miller <ben@example.net> a scris:",
        "нд, 12 трав. 2024 р. о 17:45 Ben Miller <ben@example.net> пише:",
        "23 лист. 2015 р. 09:18 \"Ben Miller\" <ben@example.net> пише:",
        "På 14 september 2015 på 02:23:18, Ben Miller (ben@example.net) skrev:",
        "Vào 14:24 8 tháng 6, 2017, Ben Miller <ben@example.net> đã viết:",
        "---- Ben Miller wrote ----",
        "Στις Κυρ 12 Μαΐ 2024 στις 17:45, ο/η Ben Miller <ben@example.net> έγραψε:",
        "Le 23 janv. 2015 à 22:03, Ben <ben@example.net<mailto:ben@example.net>> a écrit:",
        "ne 12. 5. 2024 o 17:45 Ben Miller <ben@example.net> napísal(a):",
    ];

    #[test]
    fn attribution_lines_of_every_client_and_language_are_recognised() {
        let missed: Vec<&&str> = ATTRIBUTIONS
            .iter()
            .filter(|a| attribution(a) != Some(1))
            .collect();
        assert!(missed.is_empty(), "not recognised: {missed:#?}");
    }

    #[test]
    fn wrapped_attributions_are_joined() {
        for (text, n) in [
            (
                "On Sun, 12 May 2024 at 17:45, Ben Miller\n<ben@example.net> wrote:",
                2,
            ),
            (
                "On Sun, May 12, 2024 at 5:45 PM Ben Miller <ben@example.net\n> wrote:",
                2,
            ),
            (
                "2024-05-12 17:45 GMT+02:00 Ben Miller <\nben@example.net>:",
                2,
            ),
            (
                "pe 20. lokakuuta 2017 klo 17.50 Ben Miller\n<ben@example.net> kirjoitti:",
                2,
            ),
            (
                "Ben Miller <ben@example.net> schrieb am So., 12.\nMai 2024, 17:45:",
                2,
            ),
            (
                "Am So., 12. Mai 2024 um 17:45 Uhr schrieb Ben Miller <\nben@example.net\n>:",
                3,
            ),
        ] {
            assert_eq!(attribution(text), Some(n), "{text}");
        }
    }

    #[test]
    fn a_move_just_above_an_attribution_is_not_part_of_it() {
        let lines = [
            "13. 5254",
            "On Sun, 12 May 2024 at 17:45, Ben <ben@example.net> wrote:",
        ];
        assert_eq!(attribution_len(&lines, 0), None);
        assert_eq!(attribution_len(&lines, 1), Some(1));
        let lines = [
            "Next move by 20.05.2024",
            "On Sun, 12 May 2024 at 17:45, Ben",
            "<ben@example.net> wrote:",
        ];
        assert_eq!(attribution_len(&lines, 0), None);
        assert_eq!(attribution_len(&lines, 1), Some(2));
    }

    #[test]
    fn text_before_an_attribution_on_the_same_line_is_found() {
        let lines = ["13. 5254 On Wed, Apr 4, 2012 at 3:59 PM, ben@example.net wrote:"];
        assert_eq!(attribution_len(&lines, 0), Some(1));
        assert_eq!(own_text_before(&lines, 0, 1), Some(9));
        let lines = ["5254--- On Wed, Apr 4, 2012 at 3:59 PM, ben@example.net wrote:"];
        assert_eq!(own_text_before(&lines, 0, 1), Some(5));
        let lines = ["On Wed, Apr 4, 2012 at 3:59 PM, ben@example.net wrote:"];
        assert_eq!(own_text_before(&lines, 0, 1), None);
    }

    #[test]
    fn many_openers_before_an_attribution_cost_little() {
        // Every suffix from an opener is too long to be an attribution without
        // a date, so each try fails; only a few are made per line.
        let line = format!("2024 {}am ben wrote:", "on le el il am ".repeat(24));
        let text = format!("{line}\n> x\n").repeat(2_700);
        assert!(text.len() > 1_000_000);
        let lines: Vec<&str> = text.lines().collect();
        let start = std::time::Instant::now();
        let (mut attributions, mut split) = (0, 0);
        for i in 0..lines.len() {
            if let Some(n) = attribution_len(&lines, i) {
                attributions += 1;
                split += usize::from(own_text_before(&lines, i, n).is_some());
            }
        }
        assert_eq!((attributions, split), (2_700, 0));
        assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
    }

    #[test]
    fn a_blank_line_is_skipped_only_after_a_dated_opening_line() {
        let lines = ["On Sunday I play:", "", "> wrote:"];
        assert_eq!(attribution_len(&lines, 0), None);
        let lines = ["On 12.05.2024 I will be away", "", "13. 5254"];
        assert_eq!(attribution_len(&lines, 0), None);
    }

    #[test]
    fn prose_with_numbers_is_not_an_attribution() {
        for text in [
            "13. 5254",
            "My move: 5254",
            "I wrote 5254 on the card.",
            "On move 13 I play 5254.",
            "Am Sonntag spiele ich 5254.",
            "Le coup 5254 est joué.",
            "I will be away until 17:45, see you.",
            "Thanks for the game on 12.05.2024!",
        ] {
            assert_eq!(attribution(text), None, "{text}");
        }
    }

    #[test]
    fn localized_header_blocks_are_recognised() {
        for block in [
            "From: Ben <ben@example.net>\nSent: Sunday, May 12, 2024 5:45 PM\nTo: Anna",
            "Von: Ben <ben@example.net>\nGesendet: Sonntag, 12. Mai 2024 17:45\nAn: Anna",
            "De : Ben\nEnvoyé : dimanche 12 mai 2024 17:45\nÀ : Anna",
            "De: Ben\nEnviado el: domingo, 12 de mayo de 2024 17:45\nPara: Anna",
            "Da: Ben\nInviato: domenica 12 maggio 2024 17:45\nA: Anna",
            "Van: Ben\nVerzonden: zondag 12 mei 2024 17:45\nAan: Anna",
            "De: Ben\nEnviada em: domingo, 12 de maio de 2024 17:45\nPara: Anna",
            "Od: Ben\nWysłane: niedziela, 12 maja 2024 17:45\nDo: Anna",
            "Od: Ben\nOdesláno: neděle 12. května 2024 17:45\nKomu: Anna",
            "От: Ben\nОтправлено: 12 мая 2024 г. 17:45\nКому: Anna\nТема: x",
            "Lähettäjä: Ben\nLähetetty: sunnuntai 12. toukokuuta 2024 17.45\nVastaanottaja: Anna",
            "Šalje: Ben\nPoslano: nedjelja, 12. svibnja 2024. 17:45\nPrima: Anna",
            "差出人: Ben\n送信日時: 2024年5月12日 17:45\n宛先: Anna",
            "Fra: Ben\nSendt: 12. maj 2024 17:45\nTil: Anna\nEmne: x",
            "Från: Ben\nSkickat: den 12 maj 2024 17:45\nTill: Anna",
            "*From:* Ben\n*Sent:* Sunday\n*To:* Anna",
            "Gesendet: Sonntag, 12. Mai 2024 um 17:45 Uhr\nVon: \"Ben\" <ben@example.net>\nAn: Anna",
            "Subject: x\nFrom: Ben\nTo: Anna\nCC: Carl",
        ] {
            let lines: Vec<&str> = block.lines().collect();
            assert!(is_header_block(&lines, 0), "{block}");
        }
        let lines = ["From: the start I liked 5254", "and then 7163"];
        assert!(!is_header_block(&lines, 0));
        let lines = ["Date: Sunday is fine", "To: the club", "5254"];
        assert!(!is_header_block(&lines, 0));
    }

    #[test]
    fn localized_separators_are_recognised() {
        for line in [
            "-----Original Message-----",
            "-------- Original message --------",
            "-------- Ursprüngliche Nachricht --------",
            "-------- Message d'origine --------",
            "-------- Исходное сообщение --------",
            "-------- Oprindelig meddelelse --------",
            "-------- Opprinnelig melding --------",
            "-------- Originalmeddelande --------",
            "-------- Alkuperäinen viesti --------",
            "-------- Oryginalna wiadomość --------",
            "-------- Původní zpráva --------",
            "-------- Izvorna poruka --------",
            "-------- 元のメッセージ --------",
            "-------- Mensagem original --------",
            "---------- Forwarded message ---------",
            "============ Forwarded message ============",
            "________________________________",
            "Begin forwarded message:",
        ] {
            assert!(is_separator(line), "{line}");
        }
        for line in ["--", "---- 13. 5254 ----", "== my move =="] {
            assert!(!is_separator(line), "{line}");
        }
    }

    #[test]
    fn groupwise_header_is_recognised() {
        assert!(is_groupwise_header(
            ">>> \"Ben\" <ben@example.net> 12.05.2024 17:45 >>>"
        ));
        assert!(!is_groupwise_header(">>> 5254 >>>"));
    }

    #[test]
    fn years_and_times_are_dates_but_moves_are_not() {
        assert!(has_date("12 may 2024"));
        assert!(has_date("kl. 11.00 skrev"));
        assert!(has_date("17:45"));
        assert!(!has_date("13. 5254"));
        assert!(!has_date("13.5254"));
        assert!(!has_date("12... 3746"));
    }
}
