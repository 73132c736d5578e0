//! Who sits where in one session, and what a player's name may be.

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
use unicode_security::GeneralSecurityProfile;
use unicode_security::general_security_profile::IdentifierType;

/// The most characters (Unicode scalar values, after normalisation) a player's name has.
pub const NAME_MAX: usize = 40;

/// Names no player may take, in any case: the table's accounts and the house.
pub const RESERVED_NAMES: [&str; 3] = ["KITTY", "POT", "HOUSE"];

/// A player's name as kept: trimmed and NFC. Errors in player words: empty, over
/// [`NAME_MAX`], an invisible character, or one of [`RESERVED_NAMES`]. Also for clubs.
pub fn player_name(raw: &str) -> Result<String, String> {
    visible_name(raw, NAME_MAX, "a player's name")
}

/// The most characters a club's name has.
pub const CLUB_NAME_MAX: usize = 60;

/// A club's name as kept, by [`player_name`]'s rules up to [`CLUB_NAME_MAX`]; "Pot" is allowed.
pub fn club_name(raw: &str) -> Result<String, String> {
    let what = "a club's name";
    let name = composed(raw, CLUB_NAME_MAX).ok_or_else(|| size_words(what, CLUB_NAME_MAX))?;
    check_visible(&name, CLUB_NAME_MAX, what)?;
    Ok(name)
}

/// Code points NFC may join into one character: a letter with up to three marks (Greek
/// "ᾯ" is four), a Hangul syllable of three jamo. Twice that, to be safe.
const COMPOSED_MOST: usize = 8;

/// `raw` trimmed and in NFC; `None`, unnormalised, when it has more code points than
/// [`COMPOSED_MOST`] × `max`, as it would still have more than `max` characters once
/// composed: a text of megabytes is not copied to be refused.
fn composed(raw: &str, max: usize) -> Option<String> {
    let raw = raw.trim();
    let too_long = raw.chars().nth(max.saturating_mul(COMPOSED_MOST)).is_some();
    (!too_long).then(|| raw.nfc().collect())
}

/// The form of a name two players may not share: lowercased. `name` is already normalised.
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}

fn visible_name(raw: &str, max: usize, what: &str) -> Result<String, String> {
    let name = composed(raw, max).ok_or_else(|| size_words(what, max))?;
    check_visible(&name, max, what)?;
    let key = name_key(&name);
    if RESERVED_NAMES.iter().any(|r| name_key(r) == key) {
        return Err(format!(
            "{name} is the name of the table's own account (the kitty, the pot or the house), not a player's"
        ));
    }
    Ok(name)
}

fn size_words(what: &str, max: usize) -> String {
    format!("{what} has 1 to {max} characters")
}

fn check_visible(name: &str, max: usize, what: &str) -> Result<(), String> {
    let count = name.chars().count();
    if count == 0 || count > max {
        return Err(size_words(what, max));
    }
    visible_characters(name, what)
}

/// Every character shows as itself and the text does not open with a combining mark.
fn visible_characters(text: &str, what: &str) -> Result<(), String> {
    shown_characters(text, what, invisible)
}

/// [`visible_characters`] with `hidden` telling which characters are refused.
fn shown_characters(text: &str, what: &str, hidden: fn(char) -> bool) -> Result<(), String> {
    if let Some(c) = text.chars().find(|&c| hidden(c)) {
        return Err(format!(
            "{what} may hold only visible characters and plain spaces, not U+{:04X}",
            u32::from(c)
        ));
    }
    if let Some(c) = text.chars().next().filter(|c| is_mark(*c)) {
        return Err(format!(
            "{what} must begin with a letter, digit or sign, not the combining mark U+{:04X}",
            u32::from(c)
        ));
    }
    Ok(())
}

/// A title (session or night): trimmed, NFC, at most `max` characters, visible ones only
/// but emoji joiners allowed; empty clears it. Errors name the character or length.
pub fn title(raw: &str, max: usize, what: &str) -> Result<String, String> {
    let too_long = || format!("{what} is at most {max} characters");
    let text = composed(raw, max).ok_or_else(too_long)?;
    if text.chars().count() > max {
        return Err(too_long());
    }
    shown_characters(&text, what, hidden_in_title)?;
    Ok(text)
}

/// The most characters a session's or a night's title has.
pub const TITLE_MAX: usize = 80;

/// The most characters a reason (a payment voided) has, as an event's reason.
pub const REASON_MAX: usize = 200;

/// Why something was undone, by [`title`]'s rules up to [`REASON_MAX`]; empty gives none.
pub fn reason(raw: &str) -> Result<String, String> {
    title(raw, REASON_MAX, "a reason")
}

/// [`invisible`] but for the joiners, variation selectors and tags that shape emoji.
fn hidden_in_title(c: char) -> bool {
    let emoji_part = matches!(
        c,
        '\u{200D}' | '\u{FE00}'..='\u{FE0F}' | '\u{E0020}'..='\u{E007F}' | '\u{E0100}'..='\u{E01EF}'
    );
    invisible(c) && !emoji_part
}

fn is_mark(c: char) -> bool {
    use GeneralCategory as G;
    matches!(
        c.general_category(),
        G::NonspacingMark | G::SpacingMark | G::EnclosingMark
    )
}

/// Whether `a` and `b` could be taken for one another: same [`name_key`] or TR39 skeleton,
/// also once each is [`seen_as`] ("A̶nn", "ᴀnn" and "Ann").
pub fn look_alike(a: &str, b: &str) -> bool {
    let skeleton = |s: &str| unicode_security::skeleton(s).collect::<String>();
    let (ka, kb) = (name_key(a), name_key(b));
    ka == kb
        || skeleton(a) == skeleton(b)
        || skeleton(&ka) == skeleton(&kb)
        || skeleton(&seen_as(a)) == skeleton(&seen_as(b))
}

/// `name` as the eye reads it, lowercased: without marks drawn over a letter (canonical
/// combining class 1, Overlay, such as U+0336's stroke) or around it (Enclosing_Mark), and
/// with the Latin small capitals as their letters, which TR39's confusables leave apart
/// (U+1D00 "ᴀ" is its own prototype). Accents stay: "René" is not "Rene".
fn seen_as(name: &str) -> String {
    use unicode_normalization::char::canonical_combining_class;
    name.nfd()
        .filter(|&c| {
            canonical_combining_class(c) != 1
                && c.general_category() != GeneralCategory::EnclosingMark
        })
        .map(|c| small_capital(c).unwrap_or(c))
        .collect::<String>()
        .to_lowercase()
}

/// The Latin letter a small capital (IPA and Phonetic Extensions, Latin Extended-D) shows.
fn small_capital(c: char) -> Option<char> {
    Some(match c {
        '\u{1D00}' => 'a',
        '\u{0299}' => 'b',
        '\u{1D04}' => 'c',
        '\u{1D05}' => 'd',
        '\u{1D07}' => 'e',
        '\u{A730}' => 'f',
        '\u{0262}' => 'g',
        '\u{029C}' => 'h',
        '\u{026A}' => 'i',
        '\u{1D0A}' => 'j',
        '\u{1D0B}' => 'k',
        '\u{029F}' => 'l',
        '\u{1D0D}' => 'm',
        '\u{0274}' => 'n',
        '\u{1D0F}' => 'o',
        '\u{1D18}' => 'p',
        '\u{A7AF}' => 'q',
        '\u{0280}' => 'r',
        '\u{A731}' => 's',
        '\u{1D1B}' => 't',
        '\u{1D1C}' => 'u',
        '\u{1D20}' => 'v',
        '\u{1D21}' => 'w',
        '\u{028F}' => 'y',
        '\u{1D22}' => 'z',
        _ => return None,
    })
}

/// The first of `others` that `name` would be taken for, except `name` itself.
pub fn look_alike_of<'a>(name: &str, others: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    others
        .into_iter()
        .find(|other| *other != name && look_alike(name, other))
}

/// Characters that show as nothing or something else, or move text (controls, format,
/// private-use, unassigned, TR39 `Default_Ignorable`, the blank braille pattern).
fn invisible(c: char) -> bool {
    use GeneralCategory as G;
    if c == ' ' {
        return false;
    }
    c.identifier_type() == Some(IdentifierType::Default_Ignorable)
        || matches!(
            c.general_category(),
            G::Control
                | G::Format
                | G::Surrogate
                | G::PrivateUse
                | G::Unassigned
                | G::SpaceSeparator
                | G::LineSeparator
                | G::ParagraphSeparator
        )
        || matches!(
            c,
            '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' | '\u{2800}'
        )
}

/// The seating of a session: seated players clockwise, and everyone who ever sat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    seated: Vec<String>,
    everyone: Vec<String>,
    gone_for_good: Vec<String>,
    last_dealer: Option<String>,
    /// Who sat on the last dealer's left when he left; cleared by the next deal.
    left_of_gone_dealer: Option<String>,
}

impl Table {
    /// A table with `players` seated in this clockwise order.
    pub fn new(players: &[String]) -> Table {
        Table {
            seated: players.to_vec(),
            everyone: players.to_vec(),
            gone_for_good: Vec::new(),
            last_dealer: None,
            left_of_gone_dealer: None,
        }
    }

    /// The players seated now, clockwise.
    pub fn seated(&self) -> &[String] {
        &self.seated
    }

    /// Everyone who has ever sat at the table, in order of arrival.
    pub fn everyone(&self) -> &[String] {
        &self.everyone
    }

    /// True when `name` is seated now.
    pub fn is_seated(&self, name: &str) -> bool {
        self.seated.iter().any(|s| s == name)
    }

    /// True when `name` has ever sat here (and so has an account).
    pub fn has_account(&self, name: &str) -> bool {
        self.everyone.iter().any(|s| s == name)
    }

    /// True when `name` left for good (a broke player, rules §1.2 rule 6).
    pub fn is_gone_for_good(&self, name: &str) -> bool {
        self.gone_for_good.iter().any(|s| s == name)
    }

    /// Records `dealer` as the most recent dealer.
    pub fn dealt(&mut self, dealer: &str) {
        self.last_dealer = Some(dealer.to_string());
        self.left_of_gone_dealer = None;
    }

    /// The most recent dealer, if any hand was dealt.
    pub fn last_dealer(&self) -> Option<&str> {
        self.last_dealer.as_deref()
    }

    /// The seated players clockwise from `dealer`'s left, ending with him.
    pub fn from_left_of(&self, dealer: &str) -> Vec<&str> {
        let n = self.seated.len();
        let start = self
            .seated
            .iter()
            .position(|s| s == dealer)
            .map_or(0, |i| (i + 1) % n.max(1));
        (0..n)
            .map(|k| self.seated[(start + k) % n].as_str())
            .collect()
    }

    /// The order odd cents of a split go in: from the last dealer's left (or whoever sat
    /// there), else the first seat (session-format, "Precise readings").
    pub fn leftover_order(&self) -> Vec<&str> {
        match self.dealer_left() {
            Some(first) => self.clockwise_from(first),
            None => self.seated.iter().map(String::as_str).collect(),
        }
    }

    /// Who deals next (see [`Table::leftover_order`]); `None` before the first hand.
    pub fn next_dealer(&self) -> Option<&str> {
        self.dealer_left()
    }

    /// The seated player on the last dealer's left, or whoever sat there if he left.
    fn dealer_left(&self) -> Option<&str> {
        let dealer = self.last_dealer.as_deref()?;
        if self.is_seated(dealer) {
            return self.from_left_of(dealer).first().copied();
        }
        match self.left_of_gone_dealer.as_deref() {
            Some(left) if self.is_seated(left) => Some(left),
            _ => self.seated.first().map(String::as_str),
        }
    }

    /// The seated players clockwise starting with `first`, who is seated.
    fn clockwise_from(&self, first: &str) -> Vec<&str> {
        let n = self.seated.len();
        let start = self.seated.iter().position(|s| s == first).unwrap_or(0);
        (0..n)
            .map(|k| self.seated[(start + k) % n].as_str())
            .collect()
    }

    /// Seats `name` on the left of `after` (at the end of the round when `after` is `None`).
    pub fn seat(&mut self, name: &str, after: Option<&str>) {
        let at = after
            .and_then(|a| self.seated.iter().position(|s| s == a))
            .map_or(self.seated.len(), |i| i + 1);
        self.seated.insert(at, name.to_string());
        if !self.has_account(name) {
            self.everyone.push(name.to_string());
        }
    }

    /// Unseats `name` (`for_good`: no return), passing the dealer's left on if needed.
    pub fn unseat(&mut self, name: &str, for_good: bool) {
        let dealer = self.last_dealer.as_deref();
        let holds_the_left = if dealer.is_some_and(|d| self.is_seated(d)) {
            dealer == Some(name)
        } else {
            self.left_of_gone_dealer.as_deref() == Some(name)
        };
        if holds_the_left && let Some(i) = self.seated.iter().position(|s| s == name) {
            let n = self.seated.len();
            self.left_of_gone_dealer = (n > 1).then(|| self.seated[(i + 1) % n].clone());
        }
        self.seated.retain(|s| s != name);
        if for_good {
            self.gone_for_good.push(name.to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_normalised() {
        assert_eq!(player_name("  Ann ").unwrap(), "Ann");
        // "e" + combining acute becomes the one character "é".
        assert_eq!(player_name("Rene\u{301}").unwrap(), "Ren\u{e9}");
        assert_eq!(player_name("Mary Lou").unwrap(), "Mary Lou");
        assert_eq!(player_name(&"a".repeat(40)).unwrap().len(), 40);
    }

    #[test]
    fn a_text_of_megabytes_is_refused_by_its_length_and_composed_marks_still_count_once() {
        let long = "x".repeat(60_000_000);
        assert_eq!(
            club_name(&long).unwrap_err(),
            "a club's name has 1 to 60 characters"
        );
        assert_eq!(
            player_name(&long).unwrap_err(),
            "a player's name has 1 to 40 characters"
        );
        assert_eq!(
            title(&long, TITLE_MAX, "a title").unwrap_err(),
            "a title is at most 80 characters"
        );
        // 40 letters each with a combining mark: 80 code points, 40 characters once composed.
        let marked = "e\u{301}".repeat(40);
        assert_eq!(player_name(&marked).unwrap().chars().count(), 40);
        // "ᾯ" written as four code points composes to one: 160 code points, 40 characters.
        let greek = "\u{3A9}\u{314}\u{342}\u{345}".repeat(40);
        assert_eq!(player_name(&greek).unwrap(), "\u{1FAF}".repeat(40));
    }

    #[test]
    fn invisible_reserved_and_overlong_names_are_refused() {
        for bad in [
            "",
            "   ",
            "Ann\u{200B}",
            "A\u{202E}nn",
            "An\0n",
            "Ann\u{7}",
            "Ann\u{A0}Lee",
            "\u{3164}",
            "Ann\u{34F}",
            "Ann\u{FE0F}",
            "\u{301}\u{301}",
            "\u{301}Ann",
            "Ann\u{180E}",
            "Ann\u{E0101}",
            "Kitty",
            "pot",
            "HOUSE",
            " kItTy ",
        ] {
            assert!(player_name(bad).is_err(), "{bad:?}");
        }
        assert!(player_name(&"a".repeat(41)).is_err());
        assert!(club_name("Pot").is_ok());
        assert!(club_name("Club\0").is_err());
        assert_eq!(name_key("ANN"), name_key("ann"));
    }

    #[test]
    fn look_alike_names_are_one_name() {
        for (a, b) in [
            ("Ann", "ANN"),
            ("Ann", "\u{FF21}nn"),
            ("Ann", "\u{410}nn"),
            ("Ann", "\u{430}nn"),
            ("Bob", "B\u{43E}b"),
            ("Al", "AI"),
            ("Tom", "T\u{3BF}m"),
            ("Ann", "A\u{336}nn"),
            ("Ann", "\u{1D00}nn"),
            ("Ann", "\u{1D00}\u{274}\u{274}"),
            ("Ann", "A\u{20DD}nn"),
        ] {
            assert!(look_alike(a, b), "{a:?} {b:?}");
        }
        for (a, b) in [("Ann", "Anne"), ("Bob", "Rob"), ("Ren\u{E9}", "Rene")] {
            assert!(!look_alike(a, b), "{a:?} {b:?}");
        }
        assert_eq!(look_alike_of("\u{410}nn", ["Bob", "Ann"]), Some("Ann"));
        assert_eq!(
            look_alike_of("Ann", ["Ann", "Bob"]),
            None,
            "the same player"
        );
    }

    #[test]
    fn titles_are_visible_text_of_a_bounded_length() {
        assert_eq!(
            title("  Thursday at Sal's ", 80, "a title").unwrap(),
            "Thursday at Sal's"
        );
        assert_eq!(title("   ", 80, "a title").unwrap(), "");
        for bad in ["Night\0", "Night\u{202E}", "\u{301}x"] {
            let e = title(bad, 80, "a title").unwrap_err();
            assert!(e.contains("a title"), "{e}");
        }
        assert!(title(&"x".repeat(81), 80, "a title").is_err());
        // Emoji keep their selectors and joiners in a title (never in a name).
        for emoji in ["\u{2660}\u{FE0F} night", "\u{1F468}\u{200D}\u{1F469} night"] {
            assert_eq!(title(emoji, 80, "a title").unwrap(), emoji);
            assert!(player_name(emoji).is_err(), "{emoji:?}");
        }
    }

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn leftover_starts_left_of_the_last_dealer() {
        let mut t = Table::new(&names(&["A", "B", "C"]));
        assert_eq!(t.leftover_order(), vec!["A", "B", "C"]);
        t.dealt("B");
        assert_eq!(t.leftover_order(), vec!["C", "A", "B"]);
        assert_eq!(t.next_dealer(), Some("C"));
    }

    #[test]
    fn the_player_left_of_a_dealer_who_left_comes_first() {
        // B dealt and leaves: C sat on his left, so C gets the first leftover cent and deals
        // next, not A in the first seat.
        let mut t = Table::new(&names(&["A", "B", "C", "D"]));
        t.dealt("B");
        t.unseat("B", true);
        assert_eq!(t.leftover_order(), vec!["C", "D", "A"]);
        assert_eq!(t.next_dealer(), Some("C"));
        // The same when he leaves without being broke.
        let mut t = Table::new(&names(&["A", "B", "C", "D"]));
        t.dealt("C");
        t.unseat("C", false);
        assert_eq!(t.leftover_order(), vec!["D", "A", "B"]);
        assert_eq!(t.next_dealer(), Some("D"));
    }

    #[test]
    fn the_left_of_a_dealer_in_the_last_seat_is_the_first_seat() {
        let mut t = Table::new(&names(&["A", "B", "C", "D"]));
        t.dealt("D");
        t.unseat("D", true);
        assert_eq!(t.leftover_order(), vec!["A", "B", "C"]);
        assert_eq!(t.next_dealer(), Some("A"));
    }

    #[test]
    fn when_the_player_on_his_left_leaves_too_the_next_one_clockwise_comes_first() {
        let mut t = Table::new(&names(&["A", "B", "C", "D"]));
        t.dealt("B");
        t.unseat("B", true);
        t.unseat("C", false);
        assert_eq!(t.leftover_order(), vec!["D", "A"]);
        assert_eq!(t.next_dealer(), Some("D"));
    }

    #[test]
    fn another_player_leaving_changes_nothing() {
        let mut t = Table::new(&names(&["A", "B", "C", "D"]));
        t.dealt("B");
        t.unseat("C", true);
        assert_eq!(t.leftover_order(), vec!["D", "A", "B"]);
        assert_eq!(t.next_dealer(), Some("D"));
    }

    #[test]
    fn the_next_deal_counts_from_its_own_dealer() {
        let mut t = Table::new(&names(&["A", "B", "C", "D"]));
        t.dealt("B");
        t.unseat("B", true);
        t.dealt("C");
        assert_eq!(t.leftover_order(), vec!["D", "A", "C"]);
        assert_eq!(t.next_dealer(), Some("D"));
    }

    #[test]
    fn a_newcomer_sits_where_he_is_told() {
        let mut t = Table::new(&names(&["A", "B", "C"]));
        t.seat("D", Some("A"));
        assert_eq!(t.seated(), &names(&["A", "D", "B", "C"])[..]);
        t.unseat("B", true);
        assert!(t.is_gone_for_good("B"));
        assert!(t.has_account("B"));
        assert!(!t.is_seated("B"));
    }
}
