//! [`BoxedUntilSet`]: a part most values leave unset (a schema's constraints, the extras of
//! every tool, parameter and schema), boxed only once something is set in it.

use std::ops::{Deref, DerefMut};

/// A part that can be wholly unset, and what it reads as then.
pub trait Unset: Default + PartialEq + 'static {
    /// The part with nothing set: what an absent box reads as.
    fn unset() -> &'static Self;
}

/// `T`, boxed, and absent until something in it is set: read and written as the `T` it holds
/// (it dereferences to one), 8 bytes where `T` inline is dozens, in every tool, parameter and
/// schema of a large list. Equal when the parts are equal, however each came to be unset.
#[derive(Clone, Default)]
pub struct BoxedUntilSet<T>(Option<Box<T>>);

impl<T: Unset> BoxedUntilSet<T> {
    /// The part, taken out (unset when there was none).
    pub fn into_inner(self) -> T {
        self.0.map_or_else(T::default, |part| *part)
    }

    /// Whether the part has been boxed (something was set in it, or it was changed).
    pub fn is_boxed(&self) -> bool {
        self.0.is_some()
    }

    /// The part, to change, when it is boxed; boxes nothing (unlike a change through
    /// `DerefMut`): for looking up or taking out what may be there.
    pub fn boxed_mut(&mut self) -> Option<&mut T> {
        self.0.as_deref_mut()
    }
}

/// As the part it holds.
impl<T: Unset + std::fmt::Debug> std::fmt::Debug for BoxedUntilSet<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

impl<T: Unset> Deref for BoxedUntilSet<T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.0.as_deref().unwrap_or_else(|| T::unset())
    }
}

/// Boxes the part when it is first changed.
impl<T: Unset> DerefMut for BoxedUntilSet<T> {
    fn deref_mut(&mut self) -> &mut T {
        self.0.get_or_insert_with(Box::default)
    }
}

impl<T: Unset> PartialEq for BoxedUntilSet<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Unset> From<T> for BoxedUntilSet<T> {
    fn from(part: T) -> Self {
        if &part == T::unset() { BoxedUntilSet(None) } else { BoxedUntilSet(Some(Box::new(part))) }
    }
}
