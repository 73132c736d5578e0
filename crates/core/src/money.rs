//! Exact money: an `i64` of cents (every amount is whole cents when the stake is, rules
//! §0.3), read and written only as a decimal string of at most two places (`"0.05"`,
//! `"-1.20"`), never a JSON number (session-format "Units").

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};
use std::str::FromStr;

use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An exact amount of money in cents (`Money::from_cents(5)` is `"0.05"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Money(i64);

/// Why a money string was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoneyError {
    /// Not digits with at most one point and a leading `-` (`"5e-2"`, `"+1"`, `"1,00"`).
    #[error("\"{0}\" is not an amount of money; write digits and at most one point, like \"0.05\"")]
    NotANumber(String),
    /// More than two decimal places (`"0.055"`, `"0.050"`).
    #[error("\"{0}\" has more than 2 decimal places; money is counted in whole cents")]
    FractionOfCent(String),
    /// Beyond ±[`Money::LIMIT`]; no card table plays for that.
    #[error("\"{0}\" is too large")]
    TooLarge(String),
}

/// The largest amount accepted anywhere, in cents (ten billion): far from `i64` overflow.
const LIMIT_CENTS: i64 = 1_000_000_000_000;

impl Money {
    /// Zero cents.
    pub const ZERO: Money = Money(0);

    /// The largest amount accepted anywhere (10¹² cents); see [`Money::within_limit`].
    pub const LIMIT: Money = Money(LIMIT_CENTS);

    /// An amount of `cents` cents.
    pub const fn from_cents(cents: i64) -> Money {
        Money(cents)
    }

    /// The amount in cents.
    pub const fn cents(self) -> i64 {
        self.0
    }

    /// True when the amount is exactly zero.
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }

    /// The absolute amount.
    pub const fn abs(self) -> Money {
        Money(self.0.abs())
    }

    /// How every page writes an amount: "$0.45", "−$0.15", "0.05 CHF" ([`with_currency`]).
    pub fn shown(self, currency: &str) -> String {
        let sign = if self.0 < 0 { "−" } else { "" };
        write(sign, &self.abs().to_string(), currency)
    }

    /// As [`Money::shown`], with "+" before a gain: "+$0.30"; zero is "$0.00".
    pub fn shown_signed(self, currency: &str) -> String {
        let sign = match self.0.signum() {
            1 => "+",
            -1 => "−",
            _ => "",
        };
        write(sign, &self.abs().to_string(), currency)
    }

    /// Parses `"0.05"`, `"-1.2"`, `"3"`; nothing else, never rounded. Errors: [`MoneyError`].
    pub fn parse(text: &str) -> Result<Money, MoneyError> {
        let unsigned = text.strip_prefix('-').unwrap_or(text);
        let (whole, fraction) = match unsigned.split_once('.') {
            Some((w, f)) => (w, Some(f)),
            None => (unsigned, None),
        };
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !digits(whole) || fraction.is_some_and(|f| !digits(f)) {
            return Err(MoneyError::NotANumber(text.into()));
        }
        if fraction.is_some_and(|f| f.len() > 2) {
            return Err(MoneyError::FractionOfCent(text.into()));
        }
        let value = Decimal::from_str(text).map_err(|_| MoneyError::TooLarge(text.into()))?;
        let cents = value
            .checked_mul(Decimal::ONE_HUNDRED)
            .ok_or_else(|| MoneyError::TooLarge(text.into()))?;
        let cents: i64 = cents
            .trunc()
            .try_into()
            .map_err(|_| MoneyError::TooLarge(text.into()))?;
        if cents.abs() > LIMIT_CENTS {
            return Err(MoneyError::TooLarge(text.into()));
        }
        Ok(Money(cents))
    }

    /// `self + rhs`, or `None` beyond the range of `i64` cents.
    pub const fn checked_add(self, rhs: Money) -> Option<Money> {
        match self.0.checked_add(rhs.0) {
            Some(c) => Some(Money(c)),
            None => None,
        }
    }

    /// `self + rhs`, saturating at the `i64` range: for sums [`Money::within_limit`] checks later.
    pub const fn saturating_add(self, rhs: Money) -> Money {
        Money(self.0.saturating_add(rhs.0))
    }

    /// `self × factor`, or `None` beyond the range of `i64` cents.
    pub const fn checked_mul(self, factor: i64) -> Option<Money> {
        match self.0.checked_mul(factor) {
            Some(c) => Some(Money(c)),
            None => None,
        }
    }

    /// True when the amount is within ±[`Money::LIMIT`], the most any balance may hold.
    pub const fn within_limit(self) -> bool {
        self.0 >= -LIMIT_CENTS && self.0 <= LIMIT_CENTS
    }

    /// `self / parts` toward zero to the cent, and the leftover (same sign); `parts` ≥ 1.
    pub fn divide(self, parts: i64) -> (Money, Money) {
        let parts = parts.max(1);
        let share = self.0 / parts;
        (Money(share), Money(self.0 - share * parts))
    }
}

/// U+2060 WORD JOINER after a sign: browsers may break after "−", making "$0.60" a gain.
pub const JOIN: char = '\u{2060}';

/// How pages write money: "−$3.80" (sign joined by [`JOIN`]) or "−0.10 CHF", never broken.
pub fn with_currency(amount: &str, currency: &str) -> String {
    let (sign, digits) = if let Some(rest) = amount.strip_prefix(['-', '−']) {
        ("−", rest)
    } else if let Some(rest) = amount.strip_prefix('+') {
        ("+", rest)
    } else {
        ("", amount)
    };
    write(sign, digits, currency)
}

/// `sign`, then `digits` with `currency`'s symbol or code, as [`with_currency`] says.
fn write(sign: &str, digits: &str, currency: &str) -> String {
    let join = if sign.is_empty() { "" } else { "\u{2060}" };
    match currency {
        "USD" | "CAD" | "AUD" | "NZD" => format!("{sign}{join}${digits}"),
        "EUR" => format!("{sign}{join}€{digits}"),
        "GBP" => format!("{sign}{join}£{digits}"),
        code => format!("{sign}{digits}\u{a0}{code}"),
    }
}

/// `text` with every two-decimal amount given `currency`'s symbol: "3 × 0.05" → "3 × $0.05".
pub fn amounts_with_currency(text: &str, currency: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    let mut i = 0;
    while i < chars.len() {
        let sign = matches!(chars[i], '-' | '−' | '+');
        let start = if sign { i + 1 } else { i };
        let before_ok = i == 0
            || !(chars[i - 1].is_alphanumeric() || matches!(chars[i - 1], '.' | '$' | '€' | '£'));
        let digits = chars[start..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        let point = start + digits;
        let is_amount = before_ok
            && digits > 0
            && chars.get(point) == Some(&'.')
            && chars.get(point + 1).is_some_and(char::is_ascii_digit)
            && chars.get(point + 2).is_some_and(char::is_ascii_digit)
            && !chars.get(point + 3).is_some_and(|c| {
                c.is_alphanumeric()
                    || *c == '.' && chars.get(point + 4).is_some_and(char::is_ascii_digit)
            });
        if is_amount {
            let amount: String = chars[i..point + 3].iter().collect();
            out.push_str(&with_currency(&amount, currency));
            i = point + 3;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)
    }
}

impl FromStr for Money {
    type Err = MoneyError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Money::parse(s)
    }
}

impl Add for Money {
    type Output = Money;
    fn add(self, rhs: Money) -> Money {
        Money(self.0 + rhs.0)
    }
}

impl AddAssign for Money {
    fn add_assign(&mut self, rhs: Money) {
        self.0 += rhs.0;
    }
}

impl Sub for Money {
    type Output = Money;
    fn sub(self, rhs: Money) -> Money {
        Money(self.0 - rhs.0)
    }
}

impl SubAssign for Money {
    fn sub_assign(&mut self, rhs: Money) {
        self.0 -= rhs.0;
    }
}

impl Neg for Money {
    type Output = Money;
    fn neg(self) -> Money {
        Money(-self.0)
    }
}

impl Mul<i64> for Money {
    type Output = Money;
    fn mul(self, rhs: i64) -> Money {
        Money(self.0 * rhs)
    }
}

impl Sum for Money {
    fn sum<I: Iterator<Item = Money>>(iter: I) -> Money {
        Money(iter.map(|m| m.0).sum())
    }
}

impl Serialize for Money {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Money {
    /// Accepts only a JSON string: a JSON number may already have lost precision.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Money;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("money as a decimal string such as \"0.05\"")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Money, E> {
                Money::parse(v).map_err(E::custom)
            }
        }
        deserializer.deserialize_str(Visitor)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn explanations_write_their_amounts_as_the_page_writes_money() {
        assert_eq!(
            amounts_with_currency("2 units × 2 (spades) × 0.05 = 0.20 to each", "USD"),
            "2 units × 2 (spades) × $0.05 = $0.20 to each"
        );
        // A sign goes before the symbol; scores, factors and longer numbers stay.
        assert_eq!(
            amounts_with_currency("Ann -1.20, Bob −0.40; bid 250 × 1.5; 1.234; v1.20", "EUR"),
            "Ann −\u{2060}€1.20, Bob −\u{2060}€0.40; bid 250 × 1.5; 1.234; v1.20"
        );
        assert_eq!(amounts_with_currency("pot 93.00.", "GBP"), "pot £93.00.");
        // A gain's "+" is a sign too, joined to the symbol as a minus is.
        assert_eq!(
            amounts_with_currency("net change A +0.15, D −0.45; meld 20 + 0.10", "USD"),
            "net change A +\u{2060}$0.15, D −\u{2060}$0.45; meld 20 + $0.10"
        );
        assert_eq!(amounts_with_currency("3.80", "CHF"), "3.80\u{a0}CHF");
        // Already written with a symbol, with or without a sign: left alone.
        assert_eq!(
            amounts_with_currency("$0.40 and 12.5, −\u{2060}$0.10", "USD"),
            "$0.40 and 12.5, −\u{2060}$0.10"
        );
    }

    use super::*;

    #[test]
    fn every_page_writes_money_one_way() {
        // Sign, word joiner, symbol, digits with two places; no "¢" form, no "-".
        assert_eq!(Money::from_cents(5).shown("USD"), "$0.05");
        assert_eq!(Money::from_cents(100).shown("USD"), "$1.00");
        assert_eq!(Money::from_cents(-5).shown("USD"), "\u{2212}\u{2060}$0.05");
        assert_eq!(Money::from_cents(-250).shown("USD"), "−\u{2060}$2.50");
        assert_eq!(Money::from_cents(0).shown("USD"), "$0.00");
        assert_eq!(Money::from_cents(5).shown("EUR"), "€0.05");
        assert_eq!(Money::from_cents(5).shown("CHF"), "0.05\u{a0}CHF");
        assert_eq!(Money::from_cents(-5).shown("CHF"), "−0.05\u{a0}CHF");
        assert_eq!(Money::from_cents(30).shown_signed("USD"), "+\u{2060}$0.30");
        assert_eq!(Money::from_cents(-30).shown_signed("GBP"), "−\u{2060}£0.30");
        assert_eq!(Money::ZERO.shown_signed("USD"), "$0.00");
        assert_eq!(with_currency("-3.80", "GBP"), "−\u{2060}£3.80");
        assert_eq!(with_currency("+0.80", "USD"), "+\u{2060}$0.80");
        assert_eq!(with_currency("+0.80", "CHF"), "+0.80\u{a0}CHF");
        assert_eq!(JOIN, '\u{2060}');
    }

    #[test]
    fn parses_and_prints_cents_exactly() {
        assert_eq!(Money::parse("0.05"), Ok(Money::from_cents(5)));
        assert_eq!(Money::parse("1.2"), Ok(Money::from_cents(120)));
        assert_eq!(Money::parse("-0.10"), Ok(Money::from_cents(-10)));
        assert_eq!(Money::parse("3"), Ok(Money::from_cents(300)));
        assert_eq!(Money::from_cents(-5).to_string(), "-0.05");
        assert_eq!(Money::from_cents(1234).to_string(), "12.34");
        assert_eq!(Money::ZERO.to_string(), "0.00");
    }

    #[test]
    fn refuses_fractions_of_a_cent_and_junk() {
        assert!(matches!(
            Money::parse("0.055"),
            Err(MoneyError::FractionOfCent(_))
        ));
        assert!(matches!(
            Money::parse("five"),
            Err(MoneyError::NotANumber(_))
        ));
        assert!(matches!(Money::parse(""), Err(MoneyError::NotANumber(_))));
        assert!(matches!(
            Money::parse("99999999999999"),
            Err(MoneyError::TooLarge(_))
        ));
    }

    #[test]
    fn refuses_anything_but_digits_and_one_point() {
        for text in [
            "5e-2", "+1", " 1", "1 ", "1,00", "1.", ".5", "-", "1.2.3", "0x10", "١",
        ] {
            assert!(
                matches!(Money::parse(text), Err(MoneyError::NotANumber(_))),
                "{text:?}"
            );
        }
        for text in ["0.055", "0.050", "1.000"] {
            assert!(
                matches!(Money::parse(text), Err(MoneyError::FractionOfCent(_))),
                "{text:?}"
            );
        }
        assert_eq!(
            Money::parse("10000000000.00"),
            Ok(Money::from_cents(1_000_000_000_000))
        );
        assert!(matches!(
            Money::parse("10000000000.01"),
            Err(MoneyError::TooLarge(_))
        ));
        assert!(matches!(
            Money::parse("99999999999999999999999999999999999"),
            Err(MoneyError::TooLarge(_))
        ));
    }

    #[test]
    fn json_accepts_strings_only() {
        let m: Money = serde_json::from_str("\"0.30\"").unwrap();
        assert_eq!(m, Money::from_cents(30));
        assert!(serde_json::from_str::<Money>("0.3").is_err());
        assert_eq!(serde_json::to_string(&m).unwrap(), "\"0.30\"");
    }

    #[test]
    fn divide_keeps_every_cent() {
        assert_eq!(
            Money::from_cents(100).divide(3),
            (Money::from_cents(33), Money::from_cents(1))
        );
        assert_eq!(
            Money::from_cents(-20).divide(3),
            (Money::from_cents(-6), Money::from_cents(-2))
        );
    }
}
