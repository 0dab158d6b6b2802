//! The card texts the greedy bot reads (twin of greedy.py's `_MANA_ABILITY`, `_DISCOUNT`
//! and its substring tests): small hand-written matchers of the two case-insensitive
//! patterns, so that no regex engine is needed.
#![forbid(unsafe_code)]

/// The text lower-cased (Python's `str.lower`, for the card texts' ASCII and Latin letters).
pub fn lower(text: &str) -> String {
    text.to_lowercase()
}

/// The ASCII digits at the start of `s` (at least one) and the rest, or `None`.
fn digits(s: &str) -> Option<(&str, &str)> {
    let n = s.bytes().take_while(u8::is_ascii_digit).count();
    if n == 0 {
        None
    } else {
        Some((&s[..n], &s[n..]))
    }
}

/// Does `text` match `gain (\d+) mana for (each|every)` anywhere, ignoring case
/// (greedy.py's `_MANA_ABILITY`: Aurora, Magic Seed, ...)?
pub fn mana_ability(text: &str) -> bool {
    let low = lower(text);
    low.match_indices("gain ").any(|(i, _)| {
        let rest = &low[i + 5..];
        digits(rest).is_some_and(|(_, after)| {
            after.strip_prefix(" mana for ").is_some_and(|t| t.starts_with("each") || t.starts_with("every"))
        })
    })
}

/// The number of the first match of `costs? (\d+) less` in `text`, ignoring case
/// (greedy.py's `_DISCOUNT`: an advancement bought on this card costs that much less).
pub fn discount(text: &str) -> Option<i64> {
    let low = lower(text);
    for (i, _) in low.match_indices("cost") {
        let after = &low[i + 4..];
        // `s?` is greedy: with the s first, then without.
        let tries = [after.strip_prefix('s'), Some(after)];
        for t in tries.into_iter().flatten() {
            if let Some((n, rest)) = t.strip_prefix(' ').and_then(digits) {
                if rest.starts_with(" less") {
                    return n.parse().ok();
                }
            }
        }
    }
    None
}

/// Harvest mana an ability text gives, roughly (Python's `ability_mana`): 2 for each
/// text that gains mana for each of something.
pub fn ability_mana<S: AsRef<str>>(texts: &[S]) -> f64 {
    let mut m = 0.0;
    for t in texts {
        if mana_ability(t.as_ref()) {
            m += 2.0;
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mana_pattern_matches_as_pythons_regex() {
        assert!(mana_ability("Aurora: Harvest: Gain 1 mana for each sky symbol in your field."));
        assert!(mana_ability("GAIN 12 MANA FOR EVERY card"));
        assert!(!mana_ability("gain  1 mana for each"));
        assert!(!mana_ability("gain mana for each"));
        assert!(!mana_ability("gain 1 mana for all"));
        assert_eq!(ability_mana(&["gain 2 mana for each x", "nothing", "gain 3 mana for every y"]), 4.0);
    }

    #[test]
    fn the_discount_pattern_reads_the_first_number() {
        assert_eq!(discount("It costs 2 less to buy."), Some(2));
        assert_eq!(discount("Cost 3 less"), Some(3));
        assert_eq!(discount("costs no less; costs 1 less"), Some(1));
        assert_eq!(discount("costly 2 less"), None);
        assert_eq!(discount("costs 2 more"), None);
    }
}
