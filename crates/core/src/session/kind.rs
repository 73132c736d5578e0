//! What kind of event a row of the session is: read once from the event's `type` where the
//! fold reads the event, against the game's declared kinds, matched on everywhere after,
//! and written out as the very text it was read from (`docs/session-format.md`, "Events
//! every game knows"). Pure.

use std::fmt;

use serde_json::Value;

/// The kind of one event of a session, or of the opening ante: the `type` the session
/// document writes, read against the session's own kinds and the kinds its game declares
/// ([`crate::rules::typed::Events::KINDS`]). Its text ([`EventKind::as_str`], `Display`,
/// `Serialize`) is exactly the `type` it was read from, so the documents, the CSV and the
/// pages write what they always wrote. Copied, never allocated: 16 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// `opening_ante`: the ante a kitty pot takes from every seated player at the start,
    /// without an event (the ledger's entry `seq` 0; rules §1.2 rule 1). Never read from a
    /// document: an event written with this `type` is one the game does not know.
    OpeningAnte,
    /// `hand`: one deal (in the Auction money-card game, one whole game), the event every
    /// game declares (session-format).
    Hand,
    /// `payment`: money really handed over at the table; also to or from the kitty or the
    /// pot, which does not change its size (session-format).
    Payment,
    /// `close`: the end of the sitting; a kitty is shared out by the game's rule and the
    /// settlement proposed (session-format).
    Close,
    /// `reopen`: takes the standing `close` back; its postings are reversed and play goes
    /// on (session-format).
    Reopen,
    /// `void`: undoes an earlier event, which stays on the sheet, struck (session-format).
    Void,
    /// `correction`: replaces an earlier event by an event of the same type
    /// (session-format).
    Correction,
    /// Any other kind the session's game declares: `declare_out`, `player_joins`,
    /// `player_leaves`, `kitty_divide` (each game's section of session-format).
    Game(GameKind),
}

/// A kind of event one game declares besides `hand` ([`EventKind::Game`]), held as a
/// reference to its entry in the game's [`crate::rules::typed::Events::KINDS`]: 8 bytes,
/// never allocated, and only ever one the game takes. Its text is that entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GameKind(&'static &'static str);

impl GameKind {
    /// The kind as the session document writes it in `type` (`"declare_out"`).
    pub fn as_str(self) -> &'static str {
        self.0
    }
}

/// The kinds every session takes whatever its game, which the session handles itself.
const SESSION_KINDS: [EventKind; 5] = [
    EventKind::Payment,
    EventKind::Close,
    EventKind::Reopen,
    EventKind::Void,
    EventKind::Correction,
];

impl EventKind {
    /// The kind an event's `type` names, `text`, in a session whose game declares
    /// `game_kinds` ([`crate::rules::Engine::kinds`]): one of the session's own kinds
    /// (`payment`, `close`, `reopen`, `void`, `correction`) first, else one the game
    /// declares. `None` for any other text, `opening_ante` included: such an event is
    /// refused in the game's words ([`crate::rules::Engine::unknown`]).
    pub fn read(text: &str, game_kinds: &'static [&'static str]) -> Option<EventKind> {
        EventKind::of_session(text).or_else(|| {
            let declared = game_kinds.iter().find(|k| **k == text)?;
            Some(match *declared {
                "hand" => EventKind::Hand,
                _ => EventKind::Game(GameKind(declared)),
            })
        })
    }

    /// One of the kinds every session takes whatever its game (`payment`, `close`,
    /// `reopen`, `void`, `correction`) written `text`; `None` for a game's kinds, which
    /// only the game knows ([`EventKind::read`]), and any other text.
    pub fn of_session(text: &str) -> Option<EventKind> {
        SESSION_KINDS.into_iter().find(|k| k.as_str() == text)
    }

    /// The session's own kind ([`EventKind::of_session`]) of `event` as written, before
    /// its game is at hand: `None` for a game's kinds, any other `type`, and an event
    /// without one (which the fold refuses).
    pub fn of_session_event(event: &Value) -> Option<EventKind> {
        event
            .get("type")
            .and_then(Value::as_str)
            .and_then(EventKind::of_session)
    }

    /// The kind as the session document writes it in `type` (`"hand"`), and as the
    /// ledger writes it (`"opening_ante"` for the opening ante).
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::OpeningAnte => "opening_ante",
            EventKind::Hand => "hand",
            EventKind::Payment => "payment",
            EventKind::Close => "close",
            EventKind::Reopen => "reopen",
            EventKind::Void => "void",
            EventKind::Correction => "correction",
            EventKind::Game(kind) => kind.as_str(),
        }
    }

    /// The kind in a player's words, as the sheet and the settle-up name an event that is
    /// not a hand: its text with spaces (`"player joins"`, `"opening ante"`).
    pub fn words(self) -> String {
        self.as_str().replace('_', " ")
    }

    /// Whether it amends an earlier event (`void`, `correction`): the fold restarts from
    /// the state before that event (session-format).
    pub fn amends(self) -> bool {
        matches!(self, EventKind::Void | EventKind::Correction)
    }

    /// Whether it reaches back before the last event (an amendment or a `reopen`), so it
    /// needs the session's history, not only the state after its last event.
    pub fn reaches_back(self) -> bool {
        self.amends() || self == EventKind::Reopen
    }
}

impl fmt::Display for EventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for EventKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POKER: &[&str] = &["hand", "player_joins", "player_leaves"];

    #[test]
    fn every_kind_reads_back_as_the_text_it_was_read_from() {
        let session = ["payment", "close", "reopen", "void", "correction"];
        for text in POKER.iter().copied().chain(session) {
            let kind = EventKind::read(text, POKER).unwrap();
            assert_eq!((kind.as_str(), kind.to_string().as_str()), (text, text));
            assert_eq!(serde_json::to_value(kind).unwrap(), text);
        }
        assert_eq!(EventKind::OpeningAnte.as_str(), "opening_ante");
        assert_eq!(EventKind::OpeningAnte.words(), "opening ante");
        assert_eq!(EventKind::read("hand", POKER), Some(EventKind::Hand));
    }

    #[test]
    fn a_kind_the_game_does_not_declare_is_not_read() {
        for text in ["declare_out", "opening_ante", "Hand", "", "zz"] {
            assert_eq!(EventKind::read(text, POKER), None, "{text}");
        }
        assert_eq!(EventKind::read("hand", &["declare_out"]), None);
        assert_eq!(
            EventKind::of_session("hand"),
            None,
            "only the game knows it"
        );
        assert_eq!(EventKind::of_session("void"), Some(EventKind::Void));
        let payment = serde_json::json!({"type": "payment", "from": "A"});
        assert_eq!(
            EventKind::of_session_event(&payment),
            Some(EventKind::Payment)
        );
        assert_eq!(
            EventKind::of_session_event(&serde_json::json!({"t": 1})),
            None
        );
    }

    #[test]
    fn amendments_and_the_reopen_reach_back() {
        let back: Vec<&str> = SESSION_KINDS
            .into_iter()
            .filter(|k| k.reaches_back())
            .map(EventKind::as_str)
            .collect();
        assert_eq!(back, ["reopen", "void", "correction"]);
        assert!(EventKind::Void.amends() && !EventKind::Reopen.amends());
    }

    #[test]
    fn a_kind_is_two_words_and_never_allocated() {
        assert_eq!(std::mem::size_of::<EventKind>(), 16);
    }
}
