//! Typed row ids, one type per kind, so a session's id cannot go where a club's is wanted.
//! Each is the row's `i64`, transparent to serde (a JSON number), sqlx and `Display`.

use std::fmt;

/// Declares one id type: a transparent `i64` tuple struct with its derives and `Display`.
macro_rules! id_kind {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(
            Debug,
            Clone,
            Copy,
            PartialEq,
            Eq,
            Hash,
            PartialOrd,
            Ord,
            serde::Serialize,
            serde::Deserialize,
            sqlx::Type,
        )]
        #[serde(transparent)]
        #[sqlx(transparent)]
        #[repr(transparent)]
        pub struct $name(pub i64);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }
    };
}

id_kind! {
    /// A session's id: the `sessions` row, and `session_id` wherever a row belongs to one.
    SessionId
}

id_kind! {
    /// A club's id: the `clubs` row, and `club_id` wherever a row belongs to one.
    ClubId
}

id_kind! {
    /// A club night's id: the `nights` row, and `night_id` in its sessions and payments.
    NightId
}

id_kind! {
    /// A person's id: the `people` row (one member, whatever names), `person_id` elsewhere.
    PersonId
}

id_kind! {
    /// A night payment's id: the `night_payments` row.
    PaymentId
}

id_kind! {
    /// A stored event's id: the `events` row (not its place in the session, `seq`).
    EventId
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_its_number_in_json_and_in_text() {
        let id = SessionId(42);
        assert_eq!(serde_json::to_string(&id).unwrap(), "42");
        assert_eq!(serde_json::from_str::<SessionId>("42").unwrap(), id);
        assert!(serde_json::from_str::<ClubId>("\"42\"").is_err());
        assert_eq!(NightId(7).to_string(), "7");
        assert_eq!(format!("/sessions/{}", SessionId(12)), "/sessions/12");
        let people = serde_json::to_string(&[PersonId(3), PersonId(4)]).unwrap();
        assert_eq!(people, "[3,4]");
        assert_eq!(
            format!("/payments/{}/void", PaymentId(9)),
            "/payments/9/void"
        );
        assert_eq!(serde_json::from_str::<EventId>("-1").unwrap(), EventId(-1));
    }
}
