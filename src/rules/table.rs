//! Who sits where: the seating of one session, as the rules engines see it.

/// The seating of a session: the players seated now, clockwise, and everyone who has ever
/// sat (each keeps his ledger account after leaving). The player after the dealer is the
/// dealer's left (`design/session-format.md`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    seated: Vec<String>,
    everyone: Vec<String>,
    gone_for_good: Vec<String>,
    last_dealer: Option<String>,
    /// Who sat on the last dealer's left when the dealer left the table (the next seated
    /// player clockwise); `None` while the dealer is seated or no hand was dealt. Cleared by
    /// the next deal.
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

    /// The seated players clockwise starting from the left of `dealer` and ending with him;
    /// the seating as it is when `dealer` is not seated.
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

    /// The seated players in the order that leftover cents of an equal split are handed out:
    /// from the player on the left of the most recent dealer, or from the first seat when no
    /// hand was dealt yet (`design/session-format.md`, "Precise readings"). When that dealer
    /// has left the table, from the player who sat on his left.
    pub fn leftover_order(&self) -> Vec<&str> {
        match self.dealer_left() {
            Some(first) => self.clockwise_from(first),
            None => self.seated.iter().map(String::as_str).collect(),
        }
    }

    /// The player on the dealer's left, who deals next (the player who sat on his left when
    /// the dealer has left the table); `None` before the first hand.
    pub fn next_dealer(&self) -> Option<&str> {
        self.dealer_left()
    }

    /// The seated player on the most recent dealer's left, or, when that dealer has left the
    /// table, the one who sat on his left; `None` before the first hand or when nobody is
    /// seated.
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

    /// Unseats `name`; `for_good` marks a player who may not come back. When `name` is the
    /// most recent dealer (or the player who sat on the left of a dealer who already left),
    /// the next seated player clockwise is remembered as the one on the dealer's left, who
    /// gets the first leftover cent and deals next.
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
