//! An append-only list whose copies share their common past. The event log and the history
//! of actions only ever grow at their end, so a copy of a game (each of a search's
//! determinizations) shares them whole instead of copying every entry: cloning costs one
//! reference count, and a push after the copy adds one link to that copy alone.
#![forbid(unsafe_code)]

use std::fmt;
use std::sync::Arc;

/// One entry and the link to the entries before it.
struct Link<T> {
    item: T,
    prev: Option<Arc<Link<T>>>,
}

/// An append-only list (newest entry first inside; read in the order of pushing).
pub struct Chain<T> {
    head: Option<Arc<Link<T>>>,
    len: usize,
}

impl<T> Chain<T> {
    /// An empty list.
    pub const fn new() -> Chain<T> {
        Chain { head: None, len: 0 }
    }

    /// How many entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// No entries?
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Add `item` at the end.
    pub fn push(&mut self, item: T) {
        let prev = self.head.take();
        self.head = Some(Arc::new(Link { item, prev }));
        self.len += 1;
    }

    /// The newest entry.
    pub fn last(&self) -> Option<&T> {
        self.head.as_deref().map(|l| &l.item)
    }

    /// Forget every entry.
    pub fn clear(&mut self) {
        *self = Chain::new();
    }

    /// The entries from number `start` on, oldest first (walks back only as far as `start`).
    pub fn iter_from(&self, start: usize) -> std::iter::Rev<std::vec::IntoIter<&T>> {
        let mut out = Vec::with_capacity(self.len.saturating_sub(start));
        let mut link = self.head.as_deref();
        for _ in start..self.len {
            let Some(l) = link else { break };
            out.push(&l.item);
            link = l.prev.as_deref();
        }
        out.into_iter().rev()
    }

    /// Every entry, oldest first.
    pub fn iter(&self) -> std::iter::Rev<std::vec::IntoIter<&T>> {
        self.iter_from(0)
    }

    /// Every entry, oldest first, as a `Vec`: the entries no other copy shares are moved out,
    /// the shared ones cloned (a finished game's history handed to its record, uncopied).
    pub fn into_vec(mut self) -> Vec<T>
    where
        T: Clone,
    {
        let mut out = Vec::with_capacity(self.len);
        let mut next = self.head.take();
        while let Some(link) = next {
            match Arc::try_unwrap(link) {
                Ok(mut l) => {
                    next = l.prev.take();
                    out.push(l.item);
                }
                Err(shared) => {
                    // From here back every link is shared: clone the rest.
                    let mut rest = shared.as_ref();
                    loop {
                        out.push(rest.item.clone());
                        match rest.prev.as_deref() {
                            Some(prev) => rest = prev,
                            None => break,
                        }
                    }
                    next = None;
                }
            }
        }
        self.len = 0;
        out.reverse();
        out
    }
}

impl<T> Drop for Chain<T> {
    fn drop(&mut self) {
        // Unlink one entry at a time: dropping a long list link by link through the links'
        // own drops would recurse once per entry and could overflow the stack. Of several
        // copies dropped at once, `into_inner` gives each link to exactly one of them.
        let mut next = self.head.take();
        while let Some(link) = next {
            next = Arc::into_inner(link).and_then(|mut l| l.prev.take());
        }
    }
}

impl<T> Clone for Chain<T> {
    fn clone(&self) -> Chain<T> {
        Chain { head: self.head.clone(), len: self.len }
    }
}

impl<T> Default for Chain<T> {
    fn default() -> Chain<T> {
        Chain::new()
    }
}

impl<T> FromIterator<T> for Chain<T> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Chain<T> {
        let mut out = Chain::new();
        for item in items {
            out.push(item);
        }
        out
    }
}

impl<T: PartialEq> PartialEq for Chain<T> {
    fn eq(&self, other: &Chain<T>) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl<T: Eq> Eq for Chain<T> {}

impl<T: fmt::Debug> fmt::Debug for Chain<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_in_the_order_of_pushing_and_from_any_start() {
        let c: Chain<u32> = (1..=5).collect();
        assert_eq!(c.len(), 5);
        assert_eq!(c.last(), Some(&5));
        assert_eq!(c.iter().copied().collect::<Vec<_>>(), [1, 2, 3, 4, 5]);
        assert_eq!(c.iter_from(3).copied().collect::<Vec<_>>(), [4, 5]);
        assert_eq!(c.iter_from(9).count(), 0);
    }

    #[test]
    fn a_copy_shares_the_past_and_grows_alone() {
        let mut a: Chain<String> = ["x", "y"].iter().map(|s| s.to_string()).collect();
        let mut b = a.clone();
        b.push("b".into());
        a.push("a".into());
        assert_eq!(a.iter().map(String::as_str).collect::<Vec<_>>(), ["x", "y", "a"]);
        assert_eq!(b.iter().map(String::as_str).collect::<Vec<_>>(), ["x", "y", "b"]);
        assert_ne!(a, b);
        b.clear();
        assert!(b.is_empty() && b.last().is_none());
        assert_eq!(a.len(), 3, "clearing a copy leaves the original whole");
    }

    #[test]
    fn into_vec_moves_what_it_owns_and_clones_what_a_copy_shares() {
        let c: Chain<String> = ["x", "y"].iter().map(|s| s.to_string()).collect();
        assert_eq!(c.into_vec(), ["x", "y"]);
        let mut a: Chain<String> = ["x", "y"].iter().map(|s| s.to_string()).collect();
        let b = a.clone();
        a.push("a".into());
        assert_eq!(a.into_vec(), ["x", "y", "a"]);
        assert_eq!(b.iter().map(String::as_str).collect::<Vec<_>>(), ["x", "y"], "the copy keeps its past");
        assert!(Chain::<u8>::new().into_vec().is_empty());
    }

    #[test]
    fn a_very_long_list_drops_without_overflowing_the_stack() {
        let long: Chain<u64> = (0..2_000_000).collect();
        let copy = long.clone();
        drop(long);
        assert_eq!(copy.last(), Some(&1_999_999));
        drop(copy);
    }
}
