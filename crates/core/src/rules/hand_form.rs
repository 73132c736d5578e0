//! Reading a submitted hand form into a game's typed form struct (`serde_html_form`), so a
//! refusal names the form's field in player words.
//!
//! Form fields are optional (a missing one is asked for by name in
//! [`HandForm::written`]) and read with [`text`], [`whole`], [`choice`] or [`ticked`].

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::de::{self, DeserializeOwned, IntoDeserializer};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use super::game::TypedEvent;
use super::partnership::{WrittenSide, form_tricks};
use super::typed::{Events, Game};
use super::{Field, RuleError, Suit};

/// Reads a urlencoded form body into `T`. Errors name the field in the reader's words.
pub fn read_form<T: DeserializeOwned>(body: &[u8]) -> Result<T, RuleError> {
    serde_path_to_error::deserialize(serde_html_form::Deserializer::from_bytes(body)).map_err(|e| {
        let field = match e.path().to_string() {
            dot if dot == "." => Field::name("form"),
            // Form keys name sides' entries (`NS.meld`), never players'.
            key => Field::from(key).with_entries(&[]),
        };
        RuleError::new(field, e.into_inner().to_string())
    })
}

/// A game's hand form as submitted; it turns into the `hand` event as written.
pub trait HandForm: DeserializeOwned {
    /// The written hand (`Serialize`s to the event).
    type Written: Serialize;
    /// The written hand; errors name the form's field and ask for what is missing.
    fn written(self) -> Result<Self::Written, RuleError>;
    /// The shared [`Boxes`] the form holds, if any: [`HandForm::read`] fills them.
    fn boxes(&mut self) -> Option<&mut Boxes> {
        None
    }
    /// Reads the form body ([`read_form`]), its [`Boxes`] read by their own names too, so
    /// a refusal names the box.
    fn read(body: &[u8]) -> Result<Self, RuleError> {
        let mut form: Self = read_form(body)?;
        if let Some(boxes) = form.boxes() {
            *boxes = read_form(body)?;
        }
        Ok(form)
    }
}

/// `value`, or the refusal naming `field` that asks `question` (a box left empty).
pub fn asked<T>(value: Option<T>, field: &str, question: &str) -> Result<T, RuleError> {
    value.ok_or_else(|| RuleError::new(field, question))
}

/// The boxes the pinochle hand forms share (rules §1.1, §1.5–§1.8): who dealt, the "All
/// passed" button, who won the bid, the bid in points, trump, and each side's meld, trick
/// points, "won a trick" and "all tricks" ticks. A form uses those its game has.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct Boxes {
    /// Who dealt.
    #[serde(default, deserialize_with = "text")]
    pub dealer: Option<String>,
    /// The "All passed" button.
    #[serde(default, deserialize_with = "ticked")]
    pub all_passed: bool,
    /// Who won the bid.
    #[serde(default, deserialize_with = "text")]
    pub bidder: Option<String>,
    /// The bid, in points.
    #[serde(default, deserialize_with = "whole")]
    pub bid: Option<i64>,
    /// Trump.
    #[serde(default, deserialize_with = "choice")]
    pub trump: Option<Suit>,
    /// NS's meld in points.
    #[serde(default, rename = "NS.meld", deserialize_with = "whole")]
    pub ns_meld: Option<i64>,
    /// NS's trick points.
    #[serde(default, rename = "NS.tricks", deserialize_with = "whole")]
    pub ns_tricks: Option<i64>,
    /// NS won a trick.
    #[serde(default, rename = "NS.won_trick", deserialize_with = "ticked")]
    pub ns_won_trick: bool,
    /// NS took every trick (Check Pinochle).
    #[serde(default, rename = "NS.all_tricks", deserialize_with = "ticked")]
    pub ns_all_tricks: bool,
    /// EW's meld in points.
    #[serde(default, rename = "EW.meld", deserialize_with = "whole")]
    pub ew_meld: Option<i64>,
    /// EW's trick points.
    #[serde(default, rename = "EW.tricks", deserialize_with = "whole")]
    pub ew_tricks: Option<i64>,
    /// EW won a trick.
    #[serde(default, rename = "EW.won_trick", deserialize_with = "ticked")]
    pub ew_won_trick: bool,
    /// EW took every trick (Check Pinochle).
    #[serde(default, rename = "EW.all_tricks", deserialize_with = "ticked")]
    pub ew_all_tricks: bool,
}

impl Boxes {
    /// Who dealt; refused naming `dealer` when not chosen.
    pub fn dealer(&self) -> Result<String, RuleError> {
        asked(self.dealer.clone(), "dealer", "who dealt?")
    }

    /// The bid in points; refused naming `bid` when not entered.
    pub fn bid(&self) -> Result<i64, RuleError> {
        asked(self.bid, "bid", "what was the bid?")
    }

    /// Trump; refused naming `trump` when not chosen.
    pub fn trump(&self) -> Result<Suit, RuleError> {
        asked(self.trump, "trump", "which suit is trump?")
    }

    /// Both sides as written, NS first, trick points by [`form_tricks`] (`neither` asks
    /// for them when no side has any).
    pub fn sides(&self, neither: &str) -> Result<(WrittenSide, WrittenSide), RuleError> {
        let (ns, ew) = form_tricks(self.ns_tricks, self.ew_tricks, neither)?;
        Ok((
            WrittenSide::from_form(self.ns_meld, ns, self.ns_won_trick),
            WrittenSide::from_form(self.ew_meld, ew, self.ew_won_trick),
        ))
    }
}

/// Declares a form test's `hand_event` for game `$game`'s `$form`
/// (`hand_event(b"dealer=Cy&bid=250")`).
#[cfg(test)]
macro_rules! form_tests {
    ($game:ty, $form:ty) => {
        fn hand_event(body: &[u8]) -> Result<serde_json::Value, $crate::rules::RuleError> {
            $crate::rules::hand_form::hand_event::<$game, $form>(body)
        }
    };
}
#[cfg(test)]
pub(crate) use form_tests;

/// A hand as its form typed it: the game's own event, which the engine applies as it is
/// ([`super::Engine::apply_typed`]), and the same event as the session document writes it,
/// which only the store and the API read.
#[derive(Clone)]
pub struct FormHand {
    /// The event's `type` (`"hand"`, `"declare_out"`).
    pub kind: &'static str,
    /// The game's event ([`super::typed::Game::Event`]).
    pub event: Arc<TypedEvent>,
    /// The melds named in the meld calculator, as `meld_detail` writes them; `None` without.
    pub meld_detail: Option<Value>,
    /// The event as the session document writes it, `meld_detail` included.
    pub written: Value,
}

impl std::fmt::Debug for FormHand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FormHand")
            .field("written", &self.written)
            .finish_non_exhaustive()
    }
}

/// Reads a hand form body into `F`, then into game `G`'s event (a game's `hand_from_form`),
/// with the melds the calculator named (`meld_detail.<player>.<id>` counts). Errors name the
/// form's field.
pub fn typed_hand<G, F>(body: &[u8]) -> Result<FormHand, RuleError>
where
    G: Game,
    F: HandForm<Written: Into<G::Event>>,
{
    let event: G::Event = F::read(body)?.written()?.into();
    let mut document = document(&event)?;
    let values: BTreeMap<String, String> = serde_html_form::from_bytes(body).unwrap_or_default();
    let meld_detail = super::meld::detail::from_form(&document, values.iter());
    if let Some(named) = &meld_detail {
        document["meld_detail"] = named.clone();
    }
    Ok(FormHand {
        kind: event.kind(),
        event: Arc::new(event),
        meld_detail,
        written: document,
    })
}

fn document(written: &impl Serialize) -> Result<Value, RuleError> {
    serde_json::to_value(written).map_err(|e| RuleError::new("form", e.to_string()))
}

/// Reads a hand form body into `F` and that into game `G`'s event as written (form tests).
#[cfg(test)]
pub fn hand_event<G, F>(body: &[u8]) -> Result<Value, RuleError>
where
    G: Game,
    F: HandForm<Written: Into<G::Event>>,
{
    typed_hand::<G, F>(body).map(|hand| hand.written)
}

fn trimmed<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    Ok(Option::<String>::deserialize(deserializer)?
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty()))
}

/// A text field (a name): trimmed and NFC-normalised; `None` when empty or absent.
pub fn text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    use unicode_normalization::UnicodeNormalization;
    Ok(trimmed(deserializer)?.map(|s| s.nfc().collect()))
}

/// A whole number; `None` when empty or absent, else `"x" is not a whole number`.
pub fn whole<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<i64>, D::Error> {
    trimmed(deserializer)?
        .map(|t| {
            t.parse::<i64>()
                .map_err(|_| de::Error::custom(format!("\"{t}\" is not a whole number")))
        })
        .transpose()
}

/// A choice by id; `None` when empty or absent, else `"x" is not one of the choices`.
pub fn choice<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    trimmed(deserializer)?
        .map(|t| {
            let id: de::value::StrDeserializer<'_, de::value::Error> =
                t.as_str().into_deserializer();
            T::deserialize(id)
                .map_err(|_| de::Error::custom(format!("\"{t}\" is not one of the choices")))
        })
        .transpose()
}

/// A checkbox or button: ticked when sent with any value but `"false"`.
pub fn ticked<'de, D: Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    Ok(trimmed(deserializer)?.is_some_and(|v| v != "false"))
}

/// Skips `false` when serialising (`all_passed` is written only when true).
pub fn is_false(b: &bool) -> bool {
    !*b
}

/// A form body from `(field, value)` pairs, spaces as `+` (no other escaping).
#[cfg(test)]
pub fn form_body(pairs: &[(&str, &str)]) -> Vec<u8> {
    pairs
        .iter()
        .map(|(k, v)| format!("{k}={}", v.replace(' ', "+")))
        .collect::<Vec<_>>()
        .join("&")
        .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    struct Form {
        #[serde(default, deserialize_with = "text")]
        dealer: Option<String>,
        #[serde(default, deserialize_with = "whole")]
        bid: Option<i64>,
        #[serde(default, deserialize_with = "choice")]
        trump: Option<Suit>,
        #[serde(default, deserialize_with = "ticked")]
        all_passed: bool,
        #[serde(default, rename = "NS.meld", deserialize_with = "whole")]
        ns_meld: Option<i64>,
    }

    #[test]
    fn fields_are_read_typed_and_blanks_are_missing() {
        let form: Form =
            read_form(b"dealer=+Ann+&bid=250&trump=hearts&all_passed=on&NS.meld=&extra=1").unwrap();
        assert_eq!(form.dealer.as_deref(), Some("Ann"));
        assert_eq!(form.bid, Some(250));
        assert_eq!(form.trump, Some(Suit::Hearts));
        assert!(form.all_passed);
        assert_eq!(form.ns_meld, None);
        let empty: Form = read_form(b"").unwrap();
        assert_eq!(
            (empty.dealer, empty.bid, empty.all_passed),
            (None, None, false)
        );
    }

    #[test]
    fn a_refusal_names_the_field_in_player_words() {
        let e = read_form::<Form>(b"bid=2x0").unwrap_err();
        assert_eq!(
            (e.field.to_string().as_str(), e.message.as_str()),
            ("bid", "\"2x0\" is not a whole number")
        );
        let e = read_form::<Form>(b"NS.meld=lots").unwrap_err();
        assert_eq!(e.field, "NS.meld");
        let e = read_form::<Form>(b"trump=stars").unwrap_err();
        assert_eq!(
            (e.field.to_string().as_str(), e.message.as_str()),
            ("trump", "\"stars\" is not one of the choices")
        );
    }
}
