//! The field a refusal names, as a typed path built where the engine knows what it names,
//! so a page reads a player's entry as his. Written exactly as the session format names
//! fields: `tricks.Ann`, `auction[3]`, `rounds.0.item`, `agreements.stake`.

use std::fmt;
use std::sync::OnceLock;

use serde::{Serialize, Serializer};

/// One step of a [`Field`]'s path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// A name in the document's words (`bid`, `tricks`; `NS` when read from text).
    Name(String),
    /// One player's entry, keyed by the name he plays under: the `Ann` of `tricks.Ann`.
    Player(String),
    /// One side's entry (`NS`, `EW`): the `NS` of `opening_scores.NS`.
    Side(String),
    /// A place in a list, 0-based, written `[3]` after the list (`auction[3]`).
    Index(usize),
    /// A place in a list, 0-based, written as a key (`rounds.0.item`), as forms name it.
    Place(usize),
}

/// The field at fault: a path of [`Part`]s (empty: the whole event), shown as written.
#[derive(Clone, Default)]
pub struct Field {
    parts: Vec<Part>,
    /// The path written out, when first asked for: an engine names a field for every entry
    /// it reads, and only a refused one is ever shown.
    text: OnceLock<String>,
}

impl PartialEq for Field {
    /// The same path (the text is written from it).
    fn eq(&self, other: &Field) -> bool {
        self.parts == other.parts
    }
}

impl Eq for Field {}

impl fmt::Debug for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Field")
            .field("parts", &self.parts)
            .field("text", &self.as_str())
            .finish()
    }
}

impl Field {
    /// A field named in the document's words (`"bid"`); a dotted path names each part.
    pub fn name(name: impl AsRef<str>) -> Field {
        Field::default().then(name)
    }

    /// Side `side`'s field `name`, side first (`NS.tricks`); a dotted `name` names each part.
    pub fn of_side(side: impl Into<String>, name: impl AsRef<str>) -> Field {
        Field::default().side(side).then(name)
    }

    /// The parts of the path, outermost first.
    pub fn parts(&self) -> &[Part] {
        &self.parts
    }

    /// The path as the session format writes it (`tricks.Ann`, `auction[3]`).
    pub fn as_str(&self) -> &str {
        self.text.get_or_init(|| written(&self.parts))
    }

    /// This field with `part` added at the end, its text written again.
    fn push(mut self, part: Part) -> Field {
        self.parts.push(part);
        self.text = OnceLock::new();
        self
    }

    /// This field followed by `name` (`rounds.0` then `item`); dots split it.
    pub fn then(self, name: impl AsRef<str>) -> Field {
        self.join(Field::from(name.as_ref()))
    }

    /// Player `player`'s entry of this field (`tricks` → `tricks.Ann`).
    pub fn player(self, player: impl Into<String>) -> Field {
        self.push(Part::Player(player.into()))
    }

    /// Side `side`'s entry of this field (`opening_scores` → `opening_scores.NS`).
    pub fn side(self, side: impl Into<String>) -> Field {
        self.push(Part::Side(side.into()))
    }

    /// The entry at 0-based `index` of this list, written `auction[3]`.
    pub fn index(self, index: usize) -> Field {
        self.push(Part::Index(index))
    }

    /// The entry at 0-based `place` of this list, written `rounds.0` as forms name it.
    pub fn place(self, place: usize) -> Field {
        self.push(Part::Place(place))
    }

    /// `inner` within this field (`replacement` and `bid` → `replacement.bid`).
    pub fn join(mut self, inner: Field) -> Field {
        self.parts.extend(inner.parts);
        self.text = OnceLock::new();
        self
    }

    /// The field made of `parts` (a tail of another field's path).
    pub fn from_parts(parts: &[Part]) -> Field {
        Field {
            parts: parts.to_vec(),
            text: OnceLock::new(),
        }
    }

    /// This field read from text (serde's path, a form's key) with the entries text cannot
    /// mark put back: a head `NS`/`EW` with more after it is a side's entry (`NS.meld`),
    /// and a key after a named map that is one of `players` is his (`melds.Ann`).
    pub fn with_entries(self, players: &[String]) -> Field {
        let is_side = |name: &str| super::partnership::Side::from_name(name).is_some();
        let mut parts = self.parts;
        if let [Part::Name(head), _, ..] = parts.as_slice()
            && is_side(head)
        {
            parts[0] = Part::Side(head.clone());
        }
        for i in 1..parts.len() {
            let entry = match (&parts[i - 1], &parts[i]) {
                (Part::Name(_), Part::Name(key)) if players.contains(key) => {
                    Part::Player(key.clone())
                }
                _ => continue,
            };
            parts[i] = entry;
        }
        Field::from_parts(&parts)
    }

    /// Whether the path names nothing: the event or the form as a whole.
    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }
}

/// Reads a path from text (`a.b`, `a.0`, `a[3]`); players and sides are never guessed.
impl From<&str> for Field {
    fn from(text: &str) -> Field {
        let mut parts = Vec::new();
        if text.is_empty() {
            return Field::default();
        }
        for piece in text.split('.') {
            let (name, indices) = split_indices(piece);
            if let Ok(n) = name.parse::<usize>() {
                parts.push(Part::Place(n));
            } else if !name.is_empty() || indices.is_empty() {
                parts.push(Part::Name(name.to_string()));
            }
            parts.extend(indices.into_iter().map(Part::Index));
        }
        Field {
            parts,
            text: OnceLock::new(),
        }
    }
}

/// `auction[3][1]` → (`auction`, [3, 1]); anything else after a `[` stays in the name.
fn split_indices(piece: &str) -> (&str, Vec<usize>) {
    let mut name = piece;
    let mut indices = Vec::new();
    while let Some(open) = name.strip_suffix(']').and_then(|n| n.rfind('[')) {
        let Ok(i) = name[open + 1..name.len() - 1].parse::<usize>() else {
            break;
        };
        indices.insert(0, i);
        name = &name[..open];
    }
    (name, indices)
}

impl From<String> for Field {
    fn from(text: String) -> Field {
        Field::from(text.as_str())
    }
}

impl From<&String> for Field {
    fn from(text: &String) -> Field {
        Field::from(text.as_str())
    }
}

impl From<&Field> for Field {
    fn from(field: &Field) -> Field {
        field.clone()
    }
}

/// `parts` joined by dots, an index in brackets after its list.
fn written(parts: &[Part]) -> String {
    let mut text = String::new();
    for (i, part) in parts.iter().enumerate() {
        let dot = if i == 0 { "" } else { "." };
        match part {
            Part::Name(s) | Part::Player(s) | Part::Side(s) => {
                text.push_str(dot);
                text.push_str(s);
            }
            Part::Place(n) => text.push_str(&format!("{dot}{n}")),
            Part::Index(n) => text.push_str(&format!("[{n}]")),
        }
    }
    text
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Field {
    /// As the text the session format writes, so the API's `field` stays a string.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl PartialEq<str> for Field {
    /// Compares the written path; a test or a caller may compare with the text it expects.
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Field {
    fn eq(&self, other: &&str) -> bool {
        self == *other
    }
}

impl PartialEq<String> for Field {
    fn eq(&self, other: &String) -> bool {
        self == other.as_str()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_is_written_as_the_session_format_names_it() {
        assert_eq!(
            Field::name("tricks").player("Ann").to_string(),
            "tricks.Ann"
        );
        assert_eq!(Field::name("auction").index(3).to_string(), "auction[3]");
        let item = Field::name("rounds").place(0).then("item");
        assert_eq!(item.to_string(), "rounds.0.item");
        let bid = Field::name("rounds").place(2).then("bids").player("al");
        assert_eq!(bid.to_string(), "rounds.2.bids.al");
        let nested = Field::name("replacement").join(Field::name("NS").then("meld"));
        assert_eq!(nested.to_string(), "replacement.NS.meld");
        assert_eq!(
            Field::name("rounds").index(1).index(0).to_string(),
            "rounds[1][0]"
        );
        assert_eq!(Field::default().to_string(), "");
        let checks = Field::of_side("EW", "meld_checks.flush");
        assert_eq!(checks.to_string(), "EW.meld_checks.flush");
        assert_eq!(
            checks.parts(),
            [
                Part::Side("EW".into()),
                Part::Name("meld_checks".into()),
                Part::Name("flush".into())
            ]
        );
        let json = serde_json::to_value(Field::name("opening_scores").side("NS")).unwrap();
        assert_eq!(json, serde_json::json!("opening_scores.NS"));
    }

    /// Where the reader knows the players and the sides, a path read from text gets its
    /// entries back; its text never changes.
    #[test]
    fn a_read_path_gets_its_side_and_player_entries_back() {
        let players = ["Ann", "NS", "high"].map(String::from);
        let melds = Field::from("melds.Ann").with_entries(&players);
        assert_eq!(
            melds.parts(),
            [Part::Name("melds".into()), Part::Player("Ann".into())]
        );
        assert_eq!(melds.to_string(), "melds.Ann");
        let meld = Field::from("NS.meld").with_entries(&[]);
        assert_eq!(
            meld.parts(),
            [Part::Side("NS".into()), Part::Name("meld".into())]
        );
        // A lone `NS` is an event's field of that name, and a key after a place is no map's.
        assert_eq!(
            Field::from("NS").with_entries(&[]).parts(),
            [Part::Name("NS".into())]
        );
        let bids = Field::from("rounds.0.Ann").with_entries(&players);
        assert_eq!(bids.parts()[2], Part::Name("Ann".into()));
        // An unknown name stays a name.
        let zed = Field::from("melds.Zed").with_entries(&players);
        assert_eq!(zed.parts()[1], Part::Name("Zed".into()));
    }

    #[test]
    fn text_reads_back_to_the_same_text_with_no_player_guessed() {
        for text in [
            "bid",
            "agreements.stake",
            "auction[6]",
            "rounds.0.item",
            "rounds[1][0]",
            "session.events[3].bid",
            "sessions[0].recorded_at[2]",
            "tricks.Ann",
            "",
        ] {
            assert_eq!(Field::from(text).to_string(), text);
        }
        assert_eq!(
            Field::from("tricks.Ann").parts(),
            [Part::Name("tricks".into()), Part::Name("Ann".into())]
        );
        assert_eq!(
            Field::from("rounds.0.item").parts(),
            [
                Part::Name("rounds".into()),
                Part::Place(0),
                Part::Name("item".into())
            ]
        );
    }
}
