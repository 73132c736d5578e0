//! A session's hand numbers ("hand 3") from its events' types alone, with no rules run:
//! what a download that reads the stored ledger entries needs beside them.

/// The hand numbers a [`super::Fold`] gives its rows, kept from each event's type and, for
/// an undo, its target: a deal is numbered one past the last deal still standing (the
/// first is hand 1), and an undo of a deal takes it out of the standing ones, so the next
/// deal takes its number again (session-format: a `void` strikes its target; the sheet
/// numbers the hands that stand). A correction keeps its target standing, a `reopen` takes
/// back a close, not a deal, and no amendment is itself numbered. Holds one pair of
/// integers per standing deal.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HandNumbers {
    /// The standing deals as (event index, hand number), in event order.
    standing: Vec<(usize, usize)>,
}

impl HandNumbers {
    /// The number of event `index`, the next in order, and the deal kept when it is one.
    /// `deals`: the game counts the event's type as a deal (`Engine::is_deal`); `voids`:
    /// the event a `void` takes back. `None` for every event that is not a deal.
    pub fn next(&mut self, index: usize, deals: bool, voids: Option<usize>) -> Option<usize> {
        if let Some(target) = voids {
            if let Ok(at) = self.standing.binary_search_by_key(&target, |&(i, _)| i) {
                self.standing.remove(at);
            }
            return None;
        }
        if !deals {
            return None;
        }
        let number = self
            .standing
            .last()
            .map_or(1, |&(_, n)| n.saturating_add(1));
        self.standing.push((index, number));
        Some(number)
    }
}

#[cfg(test)]
mod tests {
    use super::HandNumbers;

    #[test]
    fn an_undone_hand_gives_its_number_to_the_next_and_a_hand_undone_earlier_does_not() {
        let mut numbers = HandNumbers::default();
        let mut seen = Vec::new();
        // Hands 1 to 3; a payment; the last hand undone; a hand; the first hand undone; a hand.
        for (index, deals, voids) in [
            (0, true, None),
            (1, true, None),
            (2, true, None),
            (3, false, None),
            (4, false, Some(2)),
            (5, true, None),
            (6, false, Some(0)),
            (7, true, None),
        ] {
            seen.push(numbers.next(index, deals, voids));
        }
        let want = [
            Some(1),
            Some(2),
            Some(3),
            None,
            None,
            Some(3),
            None,
            Some(4),
        ];
        assert_eq!(seen, want);
    }
}
