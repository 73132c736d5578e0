//! What kind of event a row is: read once from `type` against the game's kinds, and
//! written back as the same text (session-format, "Events every game knows"). Pure.

use std::fmt;

use serde_json::Value;

/// The kind of one event or of the opening ante; its text is exactly the `type` read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// `opening_ante`: the kitty's ante (ledger `seq` 0; rules §1.2 rule 1); never read.
    OpeningAnte,
    /// `hand`: one deal (in the Auction money-card game, one game); every game has it.
    Hand,
    /// `payment`: money handed over at the table, also to or from the kitty or pot.
    Payment,
    /// `close`: the end of the sitting; the kitty is shared out and a settlement proposed.
    Close,
    /// `reopen`: takes the standing `close` back, reversing its postings.
    Reopen,
    /// `void`: undoes an earlier event, which stays on the sheet, struck (session-format).
    Void,
    /// `correction`: replaces an earlier event by one of the same type.
    Correction,
    /// Any other kind the game declares (`declare_out`, `player_joins`, …).
    Game(GameKind),
}

/// A kind one game declares besides `hand`: a reference into its `KINDS`, never allocated.
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
    /// The kind `text` names, session kinds first; `None` otherwise (`opening_ante` too).
    pub fn read(text: &str, game_kinds: &'static [&'static str]) -> Option<EventKind> {
        EventKind::of_session(text).or_else(|| {
            let declared = game_kinds.iter().find(|k| **k == text)?;
            Some(match *declared {
                "hand" => EventKind::Hand,
                _ => EventKind::Game(GameKind(declared)),
            })
        })
    }

    /// The session kind written `text`; `None` for anything else.
    pub fn of_session(text: &str) -> Option<EventKind> {
        SESSION_KINDS.into_iter().find(|k| k.as_str() == text)
    }

    /// The session kind of `event`; `None` for a game's kind or none.
    pub fn of_session_event(event: &Value) -> Option<EventKind> {
        event
            .get("type")
            .and_then(Value::as_str)
            .and_then(EventKind::of_session)
    }

    /// The kind as written in `type` (`"hand"`; `"opening_ante"` in the ledger).
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

    /// The kind in a player's words: its text with spaces (`"player joins"`).
    pub fn words(self) -> String {
        self.as_str().replace('_', " ")
    }

    /// Whether it amends an earlier event (`void`, `correction`).
    pub fn amends(self) -> bool {
        matches!(self, EventKind::Void | EventKind::Correction)
    }

    /// Whether it reaches back (an amendment or `reopen`), needing the history.
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
