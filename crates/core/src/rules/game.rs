//! The seam between a game and everything else: [`GameInfo`] registers a game, [`Engine`]
//! plays one session of it, and each event's [`Outcome`] says what happened. Pure.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::sheet::{Cell, GameEnd, Layout, SheetLine, Step};
use super::{FinishedGame, RuleError, Table};
use crate::ledger::Posting;

/// What one event did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The movements of money in cents, one per account, summing to zero.
    pub postings: Vec<Posting>,
    /// Running scores after the event (`scores_after` in the ledger), if the game keeps them.
    pub scores_after: Option<Value>,
    /// Why the money moved, in the table's words; the rules cited are in `rules`.
    pub explanation: String,
    /// The same reckoning as steps a player can check by hand; empty where the words suffice.
    pub steps: Vec<Step>,
    /// What the sheet shows on the event's row.
    pub line: SheetLine,
    /// The game this event finished, if any.
    pub finished: Option<(FinishedGame, GameEnd)>,
    /// The rules followed, as cited (`"rules §1.1"`); shown in the row's details, not its words.
    pub rules: Vec<String>,
}

impl Outcome {
    /// An outcome with postings, an explanation and a sheet line, finishing no game.
    pub fn new(postings: Vec<Posting>, explanation: impl Into<String>, line: SheetLine) -> Outcome {
        Outcome {
            postings,
            scores_after: None,
            explanation: explanation.into(),
            steps: Vec::new(),
            line,
            finished: None,
            rules: Vec::new(),
        }
    }

    /// The same outcome with its reckoning in typed steps.
    pub fn with_steps(self, steps: Vec<Step>) -> Outcome {
        Outcome { steps, ..self }
    }

    /// The same outcome also citing `rule` (`"rules §1.4"`), once.
    pub fn citing(mut self, rule: impl Into<String>) -> Outcome {
        let rule = rule.into();
        if !self.rules.contains(&rule) {
            self.rules.push(rule);
        }
        self
    }
}

/// A game's own event ([`super::typed::Game::Event`]) behind the erased [`Engine`].
pub type TypedEvent = dyn std::any::Any + Send + Sync;

/// What the engines see besides their own state: the seating. Not the balances: no rule
/// reads them, so the same state and events always score the same ([`Engine::same_state`]).
pub struct Ctx<'a> {
    /// Seating, mutable for games that let players join and leave.
    pub table: &'a mut Table,
    /// Nobody will read this event's words (a replay whose rows are slimmed at once): an
    /// engine may leave out the explanation, the reckoning's steps but a kitty's, and the
    /// sheet line's title, marks and details. Everything else is the same either way: the
    /// postings, the scores, the contract, the cells and a finished game with its closing
    /// row.
    pub quiet: bool,
}

/// The house accounts by default: [`crate::ledger::KITTY`] when the game keeps one (rules §1.2).
pub fn kitty_accounts(has_kitty: bool) -> Vec<&'static str> {
    if has_kitty {
        vec![crate::ledger::KITTY]
    } else {
        Vec::new()
    }
}

/// One game's engine for one session. Every method is pure; an engine is cloned to try an
/// event or to replay for a correction, so it holds no shared state. Games implement
/// [`super::typed::Game`] and reach this trait through [`super::typed::Typed`].
pub trait Engine: Send + Sync {
    /// A copy of this engine in its current state.
    fn clone_box(&self) -> Box<dyn Engine>;
    /// This engine, to compare it with another ([`Engine::same_state`]).
    fn as_any(&self) -> &dyn std::any::Any;
    /// Whether `other` is the same game in the same state. No engine reads the balances,
    /// so from two states that are the same, the same events score the same: a
    /// correction's replay may take the rest of the session as it stands from there.
    fn same_state(&self, other: &dyn Engine) -> bool;
    /// Whether the game keeps a [`crate::ledger::KITTY`] account (none by default).
    fn has_kitty(&self) -> bool {
        false
    }
    /// The table's own accounts a `payment` may name (`KITTY`, `POT`); the kitty by default.
    fn house_accounts(&self) -> Vec<&'static str> {
        kitty_accounts(self.has_kitty())
    }
    /// Postings due before the first event, e.g. the kitty's ante (rules §1.2 rule 1).
    fn opening(&mut self, _ctx: &mut Ctx<'_>) -> Option<Outcome> {
        None
    }
    /// Applies one event other than `payment` and `close`. Errors name the field and rule.
    fn apply(
        &mut self,
        ctx: &mut Ctx<'_>,
        kind: &str,
        event: &Map<String, Value>,
    ) -> Result<Outcome, RuleError>;
    /// Applies an event the hand form made ([`super::hand_form::FormHand`]): the game's own
    /// event, never read back from JSON. Errors as [`Engine::apply`]'s.
    fn apply_typed(&mut self, ctx: &mut Ctx<'_>, event: &TypedEvent) -> Result<Outcome, RuleError>;
    /// The close of the sitting: shares out the kitty and settles a game in progress.
    fn close(&mut self, ctx: &mut Ctx<'_>) -> Result<Outcome, RuleError>;
    /// The event kinds besides `payment` and `close` ([`super::typed::Events::KINDS`]).
    fn kinds(&self) -> &'static [&'static str];
    /// The refusal, naming `type`, of a kind neither the session nor this game knows.
    fn unknown(&self, kind: &str) -> RuleError;
    /// Running scores of the game in progress (`scores` in the ledger), if any.
    fn scores(&self) -> Option<Value> {
        None
    }
    /// Running check totals (`checks` in the ledger), if any.
    fn checks(&self) -> Option<Value> {
        None
    }
    /// Who deals next: the last dealer's left by default (`None` before the first hand).
    fn next_dealer(&self, table: &Table) -> Option<String> {
        table.next_dealer().map(String::from)
    }
    /// The sheet's columns for the table as it stands.
    fn layout(&self, table: &Table) -> Layout;
    /// Where the points and checks columns stand now (the game in progress).
    fn standing(&self) -> Vec<Cell> {
        Vec::new()
    }
    /// The sheet's first line when the first game does not start from zero; `None` otherwise.
    fn start_line(&self) -> Option<SheetLine> {
        None
    }
    /// The agreements in words, `(label, value)`; `currency` is the ISO code.
    fn agreements_summary(&self, currency: &str) -> Vec<(String, String)>;
    /// Pairs who pay each other ("E pays N"), which the settle-up prefers; none by default.
    fn settle_pairs(&self) -> Vec<(String, String)> {
        Vec::new()
    }
    /// Whether a `kind` event is a deal: numbered "hand N" and undone by "Undo last hand".
    fn is_deal(&self, kind: &str) -> bool {
        kind == "hand"
    }
    /// What closing now would do to a game in progress; `None` when none is.
    fn unfinished(&self) -> Option<String> {
        None
    }
    /// What the next hand's form offers at this table (the lowest bid, the outcomes, …).
    fn hand_form(&self, table: &Table) -> HandFormSpec;
    /// Whether the lowest score leads the game in progress (a house game where low wins,
    /// rules §1.12); the highest by default.
    fn low_leads(&self) -> bool {
        false
    }
    /// Where the game in progress stands, in words for the first screen (who leads, how far
    /// its end is, what ending it now would pay, money in `currency`); `None` by default.
    fn outlook(&self, _table: &Table, _currency: &str) -> Option<String> {
        None
    }
    /// The session's game as the table named it (a house game's "Hearts"), for the sheet's
    /// heading; `None` keeps the game's own name.
    fn session_name(&self) -> Option<String> {
        None
    }
}

/// One hand-form choice: the value sent, its label, and the most of it where counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The value the form sends (`"conceded_before_lead"`, `"NS"`).
    pub value: String,
    /// The label a player reads.
    pub label: String,
    /// The most of it, where it is counted; 1 otherwise.
    pub max: i64,
}

impl Choice {
    /// A choice with a label.
    pub fn new(value: impl Into<String>, label: impl Into<String>) -> Choice {
        Choice {
            value: value.into(),
            label: label.into(),
            max: 1,
        }
    }
}

/// What a game's hand form offers: the lowest bid (points) and named lists of choices.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HandFormSpec {
    /// The lowest bid allowed, in points (Pitch: 1).
    pub min_bid: i64,
    /// The named lists of choices.
    pub lists: Vec<(&'static str, Vec<Choice>)>,
    /// Words the form shows under the dealer ("the dealer sits out this deal").
    pub note: Option<String>,
}

impl HandFormSpec {
    /// The list called `name`, empty when the game has none.
    pub fn list(&self, name: &str) -> &[Choice] {
        self.lists
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(&[], |(_, l)| l.as_slice())
    }
}

/// The agreements' stake line for a game that pays only at its end: `none` (what is played
/// for without money) at a zero stake, else the amount and `per` ("a game, paid by the
/// loser to the winner").
pub fn stake_words(stake: crate::money::Money, currency: &str, none: &str, per: &str) -> String {
    if stake.is_zero() {
        format!("none: {none}")
    } else {
        format!("{} {per}", stake.shown(currency))
    }
}

/// The four suits as hand-form choices, symbol first (`"♠ spades"`).
pub fn suit_choices() -> Vec<Choice> {
    super::Suit::ALL
        .iter()
        .map(|s| Choice::new(s.name(), format!("{} {}", s.symbol(), s.name())))
        .collect()
}

/// The kind of input an agreement takes on the new-session form.
#[derive(Debug, Clone, Copy)]
pub enum SpecKind {
    /// Money as a decimal string (`"0.05"`).
    Money,
    /// A whole number; empty means "the default".
    Number,
    /// Yes or no.
    Bool,
    /// One checkbox for an agreement whose default is no: unticked sends nothing.
    Tick,
    /// One of the listed `(value, label)` choices, written as a string.
    Choice(&'static [(&'static str, &'static str)]),
    /// One of the listed whole numbers.
    NumberChoice(&'static [i64]),
    /// Words, written as a string (a house game's name).
    Text,
    /// Whole numbers separated by commas (`26, 78`), written as a list of integers.
    Numbers,
    /// Amounts of money separated by commas (`3.00, -3.00`), written as a list of strings.
    Amounts,
}

/// Every game's default `stake`, on the form and in the rules: "0.00", points only.
pub const STAKE_DEFAULT: &str = "0.00";

/// [`STAKE_DEFAULT`] as money.
pub fn default_stake() -> crate::money::Money {
    crate::money::Money::parse(STAKE_DEFAULT).unwrap_or(crate::money::Money::ZERO)
}

/// One table agreement as the new-session form offers it.
#[derive(Debug, Clone, Copy)]
pub struct AgreementSpec {
    /// The agreement's name in the session document (`"stake"`).
    pub name: &'static str,
    /// The label a player reads.
    pub label: &'static str,
    /// The input kind.
    pub kind: SpecKind,
    /// The default, as the form shows it (empty: the rules' default).
    pub default: &'static str,
    /// Why it matters, with the rule's source.
    pub help: &'static str,
}

impl AgreementSpec {
    /// The choices for a select input, as `(value, label)`; empty for a text input.
    pub fn options(&self) -> Vec<(String, String)> {
        match self.kind {
            SpecKind::Bool => vec![("yes".into(), "yes".into()), ("no".into(), "no".into())],
            SpecKind::Choice(c) => c
                .iter()
                .map(|(v, l)| (v.to_string(), l.to_string()))
                .collect(),
            SpecKind::NumberChoice(n) => n.iter().map(|v| (v.to_string(), v.to_string())).collect(),
            SpecKind::Money
            | SpecKind::Number
            | SpecKind::Tick
            | SpecKind::Text
            | SpecKind::Numbers
            | SpecKind::Amounts => Vec::new(),
        }
    }

    /// Whether the form shows one checkbox (value `yes`).
    pub fn is_tick(&self) -> bool {
        matches!(self.kind, SpecKind::Tick)
    }

    /// Whether the form shows a select (else a text input).
    pub fn is_select(&self) -> bool {
        !self.options().is_empty()
    }

    /// The HTML input mode for a phone keyboard.
    pub fn inputmode(&self) -> &'static str {
        match self.kind {
            SpecKind::Money => "decimal",
            SpecKind::Text | SpecKind::Amounts => "text",
            _ => "numeric",
        }
    }

    /// The agreement's JSON value; `None` when empty. Errors name `agreements.<name>`.
    pub fn to_json(&self, text: &str) -> Result<Option<Value>, RuleError> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(None);
        }
        let bad = |m: String| RuleError::new(format!("agreements.{}", self.name), m);
        let items = || text.split(',').map(str::trim).filter(|t| !t.is_empty());
        Ok(Some(match self.kind {
            SpecKind::Money | SpecKind::Text => Value::String(text.to_string()),
            SpecKind::Amounts => Value::Array(items().map(|t| Value::String(t.into())).collect()),
            SpecKind::Numbers => Value::Array(
                items()
                    .map(|t| {
                        t.parse::<i64>()
                            .map(Value::from)
                            .map_err(|_| bad(format!("\"{t}\" is not a whole number")))
                    })
                    .collect::<Result<_, _>>()?,
            ),
            // Only what the menu offers: anything else is a tampered or stale form.
            SpecKind::Choice(choices) => {
                if !choices.iter().any(|(value, _)| *value == text) {
                    return Err(bad(format!("\"{text}\" is not one of the choices offered")));
                }
                Value::String(text.to_string())
            }
            SpecKind::Bool | SpecKind::Tick => Value::Bool(match text {
                "yes" => true,
                "no" => false,
                other => return Err(bad(format!("\"{other}\" is neither yes nor no"))),
            }),
            SpecKind::Number | SpecKind::NumberChoice(_) => Value::from(
                text.parse::<i64>()
                    .map_err(|_| bad(format!("\"{text}\" is not a whole number")))?,
            ),
        }))
    }
}

/// `agreements` as a new-session form's `a.<name>` fields, the inverse of
/// [`AgreementSpec::to_json`]: text as written, numbers in digits, lists comma-separated,
/// yes or no; only the agreements `specs` offer.
pub fn form_of_agreements(
    specs: &[AgreementSpec],
    agreements: &Map<String, Value>,
) -> Vec<(String, String)> {
    fn text(value: &Value) -> String {
        match value {
            Value::String(s) => s.clone(),
            Value::Bool(b) => if *b { "yes" } else { "no" }.into(),
            Value::Array(items) => items.iter().map(text).collect::<Vec<_>>().join(", "),
            other => other.to_string(),
        }
    }
    specs
        .iter()
        .filter_map(|s| {
            let value = agreements.get(s.name)?;
            Some((format!("a.{}", s.name), text(value)))
        })
        .collect()
}

/// The agreements object from a form's `a.<name>` fields. Errors name `agreements.<name>`.
pub fn agreements_from_form(
    specs: &[AgreementSpec],
    form: &HashMap<String, String>,
) -> Result<Map<String, Value>, RuleError> {
    let mut agreements = Map::new();
    for spec in specs {
        if let Some(text) = form.get(&format!("a.{}", spec.name))
            && let Some(value) = spec.to_json(text)?
        {
            agreements.insert(spec.name.to_string(), value);
        }
    }
    Ok(agreements)
}

/// Agreements a table picks in one tap on the new-session form ("Hearts"): only values
/// filled in, which the table can still change.
#[derive(Debug, Clone, Copy)]
pub struct Preset {
    /// The button's words ("Hearts").
    pub label: &'static str,
    /// How many usually sit at it, in words ("3–6 players").
    pub players: &'static str,
    /// The agreements it fills in, `(name, value as the form writes it)`.
    pub agreements: &'static [(&'static str, &'static str)],
}

/// Starts an engine from agreements, players (seat order) and `opening_scores`.
pub type StartFn =
    fn(&Map<String, Value>, &[String], Option<&Value>) -> Result<Box<dyn Engine>, RuleError>;

/// Reads a submitted hand form into the game's typed event ([`crate::rules::hand_form`]).
pub type FormFn = fn(&[u8]) -> Result<super::hand_form::FormHand, RuleError>;

/// The hand form's "to make" preview from `values` and `seated` ([`crate::rules::to_make`]).
pub type ToMakeFn = fn(&HashMap<String, String>, &[String]) -> Option<String>;

/// The session's game in the table's words from its agreements, where they name a variant
/// ("Hold'em"); `None` keeps the game's own name.
pub type NameFn = fn(&Map<String, Value>) -> Option<String>;

/// A registered game.
pub struct GameInfo {
    /// The id used in session documents (`docs/session-format.md`).
    pub id: &'static str,
    /// The name shown to players.
    pub name: &'static str,
    /// The rules section (`"rules §1.1–1.3"`).
    pub rules: &'static str,
    /// The fewest and most players seated at the start.
    pub seats: (usize, usize),
    /// The agreements the new-session form offers, defaults filled in.
    pub agreements: &'static [AgreementSpec],
    /// Starts an engine for one session.
    pub start: StartFn,
    /// Reads the hand form.
    pub hand_from_form: FormFn,
    /// The game's meld table (rules §1.0 and the game's section); `None` without meld.
    pub meld: Option<&'static super::meld::MeldRules>,
    /// What the bidder needs to make the contract; `None` without a contract.
    pub to_make: Option<ToMakeFn>,
    /// The name of a session's variant ([`GameInfo::session_name`]); `None` without variants.
    pub variant_name: Option<NameFn>,
    /// Agreements offered in one tap on the new-session form; empty for most games.
    pub presets: &'static [Preset],
    /// Whether statistics count this game's sessions apart by [`GameInfo::session_name`]
    /// (a house game's "Hearts" and "Gin Rummy", rules §1.12); else all under its name.
    pub counted_by_session_name: bool,
}

impl GameInfo {
    /// Registers typed game `G` with hand form `F`, without meld or "to make".
    pub const fn typed<G, F>(
        (id, name, rules): (&'static str, &'static str, &'static str),
        seats: (usize, usize),
        agreements: &'static [AgreementSpec],
    ) -> GameInfo
    where
        G: super::typed::Game,
        F: super::hand_form::HandForm<Written: Into<G::Event>>,
    {
        GameInfo {
            id,
            name,
            rules,
            seats,
            agreements,
            start: super::typed::start::<G>,
            hand_from_form: super::hand_form::typed_hand::<G, F>,
            meld: None,
            to_make: None,
            variant_name: None,
            presets: &[],
            counted_by_session_name: false,
        }
    }

    /// The same registration with statistics counted apart by each session's name.
    pub const fn counted_by_session_name(self) -> GameInfo {
        GameInfo {
            counted_by_session_name: true,
            ..self
        }
    }

    /// The same registration offering `presets` on the new-session form.
    pub const fn with_presets(self, presets: &'static [Preset]) -> GameInfo {
        GameInfo { presets, ..self }
    }

    /// The same registration naming each session by the variant its agreements choose.
    pub const fn with_variant_name(self, name: NameFn) -> GameInfo {
        GameInfo {
            variant_name: Some(name),
            ..self
        }
    }

    /// What players call a session of this game played under `agreements`: its variant
    /// ("Omaha") where the game has variants, else the game's name ("Auction Pitch").
    pub fn session_name(&self, agreements: &Map<String, Value>) -> String {
        self.variant_name
            .and_then(|named| named(agreements))
            .unwrap_or_else(|| self.name.to_string())
    }

    /// The same registration with the game's meld table.
    pub const fn with_meld(self, meld: &'static super::meld::MeldRules) -> GameInfo {
        GameInfo {
            meld: Some(meld),
            ..self
        }
    }

    /// The same registration with the game's "to make" sentence.
    pub const fn with_to_make(self, to_make: ToMakeFn) -> GameInfo {
        GameInfo {
            to_make: Some(to_make),
            ..self
        }
    }
}

/// Every field of `event` as the hand form's input names it (`points.high`,
/// `rounds.0.bids.Ann`; `null` as `"nobody"`), to correct it.
pub fn form_values(event: &Value) -> HashMap<String, String> {
    let mut values = HashMap::new();
    flatten("", event, &mut values);
    values
}

fn flatten(prefix: &str, value: &Value, into: &mut HashMap<String, String>) {
    let key = |name: &str| {
        if prefix.is_empty() {
            name.to_string()
        } else {
            format!("{prefix}.{name}")
        }
    };
    match value {
        Value::Object(fields) => {
            for (name, inner) in fields {
                flatten(&key(name), inner, into);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                match item.as_str() {
                    // A list of names is a count per name (meld checks).
                    Some(name) => {
                        let count = into.entry(key(name)).or_insert_with(|| "0".into());
                        *count = (count.parse::<usize>().unwrap_or(0) + 1).to_string();
                    }
                    // Anything else is an entry by its place (`rounds.0.bids.Ann`).
                    None => flatten(&key(&i.to_string()), item, into),
                }
            }
        }
        Value::String(s) => {
            into.insert(prefix.to_string(), s.clone());
        }
        Value::Number(n) => {
            into.insert(prefix.to_string(), n.to_string());
        }
        Value::Bool(true) => {
            into.insert(prefix.to_string(), "true".into());
        }
        Value::Null => {
            into.insert(prefix.to_string(), "nobody".into());
        }
        Value::Bool(false) => {}
    }
}

#[cfg(test)]
mod form_values_tests {
    use serde_json::json;

    use super::{STAKE_DEFAULT, default_stake, form_values};

    #[test]
    fn the_default_stake_is_nothing() {
        // Session-format: "default "0.00", which means a points-only session".
        assert_eq!(STAKE_DEFAULT, "0.00");
        assert_eq!(default_stake(), crate::money::Money::ZERO);
        assert!(crate::money::Money::parse(STAKE_DEFAULT).is_ok_and(|m| m.is_zero()));
    }

    #[test]
    fn an_event_becomes_the_fields_of_its_form() {
        let values = form_values(&json!({
            "type": "hand", "dealer": "Ann", "all_passed": false,
            "points": {"high": "Bob", "jack": null},
            "NS": {"meld_checks": ["aces_100", "aces_100", "flush"]},
            "rounds": [{"item": "Q", "bids": {"Ann": 7, "Bob": 5}}, {"item": "K", "bids": {}}]
        }));
        let get = |k: &str| values.get(k).map(String::as_str);
        assert_eq!(get("dealer"), Some("Ann"));
        assert_eq!(get("all_passed"), None, "an unticked box is left out");
        assert_eq!(get("points.high"), Some("Bob"));
        assert_eq!(get("points.jack"), Some("nobody"));
        assert_eq!(get("NS.meld_checks.aces_100"), Some("2"));
        assert_eq!(get("NS.meld_checks.flush"), Some("1"));
        assert_eq!(get("rounds.0.item"), Some("Q"));
        assert_eq!(get("rounds.0.bids.Bob"), Some("5"));
        assert_eq!(get("rounds.1.item"), Some("K"));
    }
}
