//! The typed side of the seam: a [`Game`] reads its agreements and events into its own
//! types (serde, `deny_unknown_fields`), and one erased adapter, [`Typed`], makes it the
//! [`Engine`] the fold, registry and pages use. Pure.

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::game::{Ctx, Engine, HandFormSpec, Outcome, TypedEvent, default_stake};
use super::sheet::{Cell, Layout, SheetLine};
use super::{RuleError, Table, fields};
use crate::money::Money;

/// A game's table agreements: read as written (`Written`), then checked against the rules.
pub trait TableAgreements: Sized {
    /// The agreements as the session document writes them (`docs/session-format.md`).
    type Written: DeserializeOwned;
    /// Checks the written agreements against the rules. Errors name the agreement bare
    /// (`"target"`); [`read_agreements`] prefixes `agreements.`.
    fn check(written: Self::Written) -> Result<Self, RuleError>;

    /// Reads the `agreements` object ([`read_agreements`]).
    fn read(object: &Map<String, Value>) -> Result<Self, RuleError> {
        read_agreements(object)
    }
}

/// Reads and checks a session's `agreements` object; errors name `agreements.<field>`.
pub fn read_agreements<A: TableAgreements>(object: &Map<String, Value>) -> Result<A, RuleError> {
    let written: A::Written = fields::read(object).map_err(|e| e.within("agreements"))?;
    A::check(written).map_err(|e| e.within("agreements"))
}

/// A game's events besides `payment` and `close` ([`events!`](crate::rules::typed::events)).
pub trait Events: Sized + Clone + Send + Sync + serde::Serialize + 'static {
    /// The kinds this game takes, as the session document writes them in `type`.
    const KINDS: &'static [&'static str];
    /// Reads an event of kind `kind`; `None` when the game has no such kind.
    fn read(kind: &str, object: &Map<String, Value>) -> Option<Result<Self, RuleError>>;
    /// The kind of this event, as written in `type`.
    fn kind(&self) -> &'static str;
}

/// Declares a game's event enum and its [`Events`]: one line per kind and its written
/// struct; `by reader` refuses a field by name before serde would (`all_passed`). The enum
/// reads and writes the event's `type`; the written structs hold the rest.
macro_rules! events {
    ($(#[$m:meta])* $vis:vis enum $name:ident {
        $($(#[$vm:meta])* $kind:literal => $variant:ident($ty:ty) $(by $reader:path)?),+ $(,)?
    }) => {
        $(#[$m])*
        #[derive(Debug, Clone, serde::Serialize)]
        #[serde(tag = "type")]
        $vis enum $name {
            $($(#[$vm])* #[serde(rename = $kind)] $variant($ty)),+
        }

        impl $crate::rules::typed::Events for $name {
            const KINDS: &'static [&'static str] = &[$($kind),+];

            fn read(
                kind: &str,
                object: &serde_json::Map<String, serde_json::Value>,
            ) -> Option<Result<Self, $crate::rules::RuleError>> {
                match kind {
                    $($kind => Some(
                        $crate::rules::typed::read_event!($ty, object $(, $reader)?)
                            .map($name::$variant)
                    ),)+
                    _ => None,
                }
            }

            fn kind(&self) -> &'static str {
                match self {
                    $($name::$variant(_) => $kind),+
                }
            }
        }

        $(impl From<$ty> for $name {
            fn from(event: $ty) -> $name {
                $name::$variant(event)
            }
        })+
    };
}
pub(crate) use events;

/// Agreements-test helpers for `$a`: `read` and `field`.
#[cfg(test)]
macro_rules! agreement_tests {
    ($a:ty) => {
        fn read(v: serde_json::Value) -> Result<$a, $crate::rules::RuleError> {
            <$a as $crate::rules::typed::TableAgreements>::read(v.as_object().unwrap())
        }

        #[allow(dead_code)]
        fn field(v: serde_json::Value) -> String {
            read(v).unwrap_err().field.to_string()
        }
    };
}
#[cfg(test)]
pub(crate) use agreement_tests;

/// One event's reading in [`events!`]: serde into the written struct, or the game's reader.
macro_rules! read_event {
    ($ty:ty, $object:ident) => {
        $crate::rules::fields::read_event::<$ty>($object)
    };
    ($ty:ty, $object:ident, $reader:path) => {
        $reader($object)
    };
}
pub(crate) use read_event;

/// One game's rules for one session, typed. Pure; a refusal names the field and the rule
/// and leaves the game unchanged.
///
/// The methods after [`Game::hand_form`] mean what [`Engine`]'s do, with the same defaults.
/// Equal states (`PartialEq`, every field compared) must score every later event alike:
/// a correction's replay stops where it meets a state it had ([`Engine::same_state`]).
pub trait Game: Clone + PartialEq + Send + Sync + 'static {
    /// The table agreements, read once at the start.
    type Agreements: TableAgreements;
    /// The game's events (`hand`, …), read at the edge.
    type Event: Events;
    /// The game's name in a refusal ("Auction Pitch").
    const NAME: &'static str;
    /// What may be entered instead, in an unknown kind's refusal ("a hand, a payment or …").
    const ENTER: &'static str;
    /// The rule an unknown kind's refusal cites, if any (`"rules §1.7"`).
    const RULE: Option<&'static str> = None;

    /// Starts a session from agreements, players and `opening_scores`. Errors name the field.
    fn new(
        agreements: Self::Agreements,
        players: &[String],
        opening_scores: Option<&Value>,
    ) -> Result<Self, RuleError>;
    /// Applies one typed event. Errors name the event's field and the rule.
    fn apply(&mut self, ctx: &mut Ctx<'_>, event: Self::Event) -> Result<Outcome, RuleError>;
    /// The close of the sitting ([`Engine::close`]).
    fn close(&mut self, ctx: &mut Ctx<'_>) -> Result<Outcome, RuleError>;
    /// The sheet's columns ([`Engine::layout`]).
    fn layout(&self, table: &Table) -> Layout;
    /// The agreements in words ([`Engine::agreements_summary`]).
    fn agreements_summary(&self, currency: &str) -> Vec<(String, String)>;
    /// What the next hand's form offers ([`Engine::hand_form`]).
    fn hand_form(&self, table: &Table) -> HandFormSpec;

    /// The refusal of a kind this game does not take ([`unknown_kind`] by default).
    fn unknown(kind: &str) -> RuleError {
        unknown_kind::<Self>(kind)
    }
    /// [`Engine::has_kitty`]: none by default.
    fn has_kitty(&self) -> bool {
        false
    }
    /// [`Engine::house_accounts`]: the kitty when the game keeps one.
    fn house_accounts(&self) -> Vec<&'static str> {
        super::game::kitty_accounts(self.has_kitty())
    }
    /// [`Engine::opening`]: nothing due by default.
    fn opening(&mut self, _ctx: &mut Ctx<'_>) -> Option<Outcome> {
        None
    }
    /// [`Engine::scores`]: none by default.
    fn scores(&self) -> Option<Value> {
        None
    }
    /// [`Engine::checks`]: none by default.
    fn checks(&self) -> Option<Value> {
        None
    }
    /// [`Engine::next_dealer`]: the player on the last dealer's left by default.
    fn next_dealer(&self, table: &Table) -> Option<String> {
        table.next_dealer().map(String::from)
    }
    /// [`Engine::standing`]: nothing by default.
    fn standing(&self) -> Vec<Cell> {
        Vec::new()
    }
    /// [`Engine::start_line`]: none by default.
    fn start_line(&self) -> Option<SheetLine> {
        None
    }
    /// [`Engine::settle_pairs`]: none by default.
    fn settle_pairs(&self) -> Vec<(String, String)> {
        Vec::new()
    }
    /// [`Engine::is_deal`]: `hand` by default.
    fn is_deal(&self, kind: &str) -> bool {
        kind == "hand"
    }
    /// [`Engine::unfinished`]: nothing in progress by default.
    fn unfinished(&self) -> Option<String> {
        None
    }
    /// [`Engine::low_leads`]: the highest score leads by default.
    fn low_leads(&self) -> bool {
        false
    }
    /// [`Engine::outlook`]: no words by default.
    fn outlook(&self, _table: &Table, _currency: &str) -> Option<String> {
        None
    }
    /// [`Engine::session_name`]: the game's own name by default.
    fn session_name(&self) -> Option<String> {
        None
    }
}

/// The refusal of a kind `G` does not know, citing [`Game::RULE`].
pub fn unknown_kind<G: Game>(kind: &str) -> RuleError {
    let refusal = RuleError::new(
        "type",
        format!(
            "\"{kind}\" is not something that happens in {}: enter {}",
            G::NAME,
            G::ENTER
        ),
    );
    match G::RULE {
        Some(rule) => refusal.rule(rule),
        None => refusal,
    }
}

/// Starts `G` for one session (every typed game's [`StartFn`](super::game::StartFn)).
pub fn start<G: Game>(
    agreements: &Map<String, Value>,
    players: &[String],
    opening_scores: Option<&Value>,
) -> Result<Box<dyn Engine>, RuleError> {
    let agreements = read_agreements::<G::Agreements>(agreements)?;
    Ok(Box::new(Typed(G::new(
        agreements,
        players,
        opening_scores,
    )?)))
}

/// The one erased adapter: a typed [`Game`] as the session's [`Engine`].
#[derive(Debug, Clone)]
pub struct Typed<G>(pub G);

impl<G: Game> Engine for Typed<G> {
    fn clone_box(&self) -> Box<dyn Engine> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn same_state(&self, other: &dyn Engine) -> bool {
        other
            .as_any()
            .downcast_ref::<Typed<G>>()
            .is_some_and(|other| other.0 == self.0)
    }
    fn has_kitty(&self) -> bool {
        self.0.has_kitty()
    }
    fn house_accounts(&self) -> Vec<&'static str> {
        self.0.house_accounts()
    }
    fn opening(&mut self, ctx: &mut Ctx<'_>) -> Option<Outcome> {
        self.0.opening(ctx)
    }
    /// Reads and applies the event; refusals name side and player entries as such.
    fn apply(
        &mut self,
        ctx: &mut Ctx<'_>,
        kind: &str,
        event: &Map<String, Value>,
    ) -> Result<Outcome, RuleError> {
        let event = G::Event::read(kind, event)
            .ok_or_else(|| G::unknown(kind))?
            .map_err(|e| RuleError {
                field: e.field.with_entries(ctx.table.everyone()),
                ..e
            })?;
        self.0.apply(ctx, event)
    }
    fn apply_typed(&mut self, ctx: &mut Ctx<'_>, event: &TypedEvent) -> Result<Outcome, RuleError> {
        let event = event.downcast_ref::<G::Event>().cloned().ok_or_else(|| {
            RuleError::new("type", "internal error: the form made another game's event")
        })?;
        self.0.apply(ctx, event)
    }
    fn close(&mut self, ctx: &mut Ctx<'_>) -> Result<Outcome, RuleError> {
        self.0.close(ctx)
    }
    fn kinds(&self) -> &'static [&'static str] {
        G::Event::KINDS
    }
    fn unknown(&self, kind: &str) -> RuleError {
        G::unknown(kind)
    }
    fn scores(&self) -> Option<Value> {
        self.0.scores()
    }
    fn checks(&self) -> Option<Value> {
        self.0.checks()
    }
    fn next_dealer(&self, table: &Table) -> Option<String> {
        self.0.next_dealer(table)
    }
    fn layout(&self, table: &Table) -> Layout {
        self.0.layout(table)
    }
    fn standing(&self) -> Vec<Cell> {
        self.0.standing()
    }
    fn start_line(&self) -> Option<SheetLine> {
        self.0.start_line()
    }
    fn agreements_summary(&self, currency: &str) -> Vec<(String, String)> {
        self.0.agreements_summary(currency)
    }
    fn settle_pairs(&self) -> Vec<(String, String)> {
        self.0.settle_pairs()
    }
    fn is_deal(&self, kind: &str) -> bool {
        self.0.is_deal(kind)
    }
    fn unfinished(&self) -> Option<String> {
        self.0.unfinished()
    }
    fn hand_form(&self, table: &Table) -> HandFormSpec {
        self.0.hand_form(table)
    }
    fn low_leads(&self) -> bool {
        self.0.low_leads()
    }
    fn outlook(&self, table: &Table, currency: &str) -> Option<String> {
        self.0.outlook(table, currency)
    }
    fn session_name(&self) -> Option<String> {
        self.0.session_name()
    }
}

/// The stake per unit as written (`"0.05"`): money, never negative (refusal names `stake`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(try_from = "Money")]
pub struct Stake(Money);

impl Stake {
    /// The stake as money.
    pub fn money(self) -> Money {
        self.0
    }
}

impl Default for Stake {
    fn default() -> Stake {
        Stake(default_stake())
    }
}

impl TryFrom<Money> for Stake {
    type Error = &'static str;
    fn try_from(money: Money) -> Result<Stake, &'static str> {
        if money.cents() < 0 {
            Err("the stake cannot be negative")
        } else {
            Ok(Stake(money))
        }
    }
}

/// `true`: serde default of an agreement that holds unless written otherwise.
pub fn yes() -> bool {
    true
}

/// 1,000 points: the pinochle games' default target (rules §1.5, §1.7, §1.9; S002–S004).
pub fn thousand() -> i64 {
    1000
}

/// 250 points: the default target rise when both reach it on one deal (rules §1.5, §1.9).
pub fn two_fifty() -> i64 {
    250
}

/// Points agreed within 1–`max`; a refusal names `field`, adds `more`, cites `rule`.
pub fn points_within(
    field: &str,
    value: i64,
    max: i64,
    more: &str,
    rule: Option<&str>,
) -> Result<i64, RuleError> {
    if (1..=max).contains(&value) {
        return Ok(value);
    }
    let refusal = RuleError::new(
        field,
        format!("{value} must be between 1 and {max} points{more}"),
    );
    Err(match rule {
        Some(rule) => refusal.rule(rule),
        None => refusal,
    })
}

/// Refuses contract fields `given` when all passed, naming the first, citing `rule`.
pub fn no_contract(
    given: &[(&'static str, bool)],
    words: &str,
    rule: Option<&str>,
) -> Result<(), RuleError> {
    match given.iter().find(|(_, is_given)| *is_given) {
        None => Ok(()),
        Some((field, _)) => {
            let refusal = RuleError::new(*field, words);
            Err(match rule {
                Some(rule) => refusal.rule(rule),
                None => refusal,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Written {
        #[serde(default)]
        stake: Stake,
    }

    fn read(v: Value) -> Result<Written, RuleError> {
        fields::read(v.as_object().unwrap()).map_err(|e| e.within("agreements"))
    }

    #[test]
    fn a_stake_is_money_at_the_default_and_never_negative() {
        let none = read(json!({})).unwrap();
        assert_eq!(none.stake.money(), Money::ZERO);
        let nickel = read(json!({"stake": "0.05"})).unwrap();
        assert_eq!(nickel.stake.money().cents(), 5);
        let e = read(json!({"stake": "-0.05"})).unwrap_err();
        assert_eq!(e.field, "agreements.stake");
        assert_eq!(e.message, "the stake cannot be negative");
        let e = read(json!({"stake": 5})).unwrap_err();
        assert_eq!(e.field, "agreements.stake", "a JSON number is not money");
    }

    #[test]
    fn a_passed_out_deal_names_the_first_contract_field_given() {
        let words = "all passed: no contract";
        assert_eq!(
            no_contract(&[("bidder", false), ("bid", false)], words, None),
            Ok(())
        );
        let e = no_contract(
            &[("bidder", false), ("bid", true), ("trump", true)],
            words,
            None,
        );
        assert_eq!(e.unwrap_err().field, "bid");
        let e = no_contract(&[("trump", true)], words, Some("rules §1.8")).unwrap_err();
        assert_eq!(
            (e.field.to_string().as_str(), e.rule.as_deref()),
            ("trump", Some("rules §1.8"))
        );
        assert_eq!(e.message, words);
    }

    /// Through the adapter, as the session fold calls it: Auction Pitch (rules §1.4).
    fn pitch() -> Box<dyn Engine> {
        let players = ["A", "B", "C"].map(String::from);
        (crate::rules::auction_pitch::GAME.start)(&Map::new(), &players, None).unwrap()
    }

    fn apply(engine: &mut dyn Engine, event: Value) -> Result<Outcome, RuleError> {
        let mut table = Table::new(&["A", "B", "C"].map(String::from));
        let mut ctx = Ctx {
            table: &mut table,
            quiet: false,
        };
        let kind = event["type"].as_str().unwrap().to_string();
        engine.apply(&mut ctx, &kind, event.as_object().unwrap())
    }

    #[test]
    fn the_adapter_refuses_a_kind_the_game_does_not_know_in_its_words() {
        let e = apply(pitch().as_mut(), json!({"type": "bet", "amount": 5})).unwrap_err();
        assert_eq!(e.field, "type");
        assert_eq!(
            e.message,
            "\"bet\" is not something that happens in Auction Pitch: enter a hand, a payment or the close"
        );
        assert_eq!(e.rule, None);
    }

    #[test]
    fn the_adapter_reads_the_event_naming_the_field_at_fault() {
        let mut engine = pitch();
        let e = apply(
            engine.as_mut(),
            json!({"type": "hand", "dealer": "A", "bidd": 2}),
        );
        assert_eq!(e.unwrap_err().field, "bidd");
        // A played hand: B bid 2 and took High, Low and Game, C the Jack: B makes 3.
        let hand = json!({"type": "hand", "dealer": "A", "pitcher": "B", "bid": 2,
            "points": {"high": "B", "low": "B", "jack": "C", "game": "B"}});
        apply(engine.as_mut(), hand).unwrap();
        assert_eq!(engine.scores(), Some(json!({"A": 0, "B": 3, "C": 1})));
        let copy = engine.clone_box();
        assert_eq!(copy.scores(), engine.scores(), "a clone keeps the state");
    }

    #[test]
    fn a_negative_stake_is_refused_at_the_start_naming_it() {
        let players = ["A", "B"].map(String::from);
        let written = json!({"stake": "-0.10"});
        let start = crate::rules::auction_pitch::GAME.start;
        let e = start(written.as_object().unwrap(), &players, None)
            .err()
            .unwrap();
        assert_eq!(e.field, "agreements.stake");
        assert_eq!(e.message, "the stake cannot be negative");
    }
}
