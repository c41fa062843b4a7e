//! Where a schema sits below a model path, for the walks over every schema of a model
//! (expansion, cutting references, the loss report): the path is written out only when a
//! diagnostic needs it, which most schema nodes never do.

/// A schema's place: a model path, or a part of the schema at its parent's place.
#[derive(Debug)]
pub enum SchemaAt<'p> {
    Root(&'p str),
    Items(&'p SchemaAt<'p>),
    Property(&'p SchemaAt<'p>, usize),
    AdditionalProperties(&'p SchemaAt<'p>),
    AnyOf(&'p SchemaAt<'p>, usize),
}

impl SchemaAt<'_> {
    /// How many schemas enclose this one.
    pub fn depth(&self) -> usize {
        match self {
            SchemaAt::Root(_) => 0,
            SchemaAt::Items(parent) | SchemaAt::AdditionalProperties(parent) => 1 + parent.depth(),
            SchemaAt::Property(parent, _) | SchemaAt::AnyOf(parent, _) => 1 + parent.depth(),
        }
    }

    /// The model path (the fields' JSON names, as `Schema` serializes them).
    pub fn path(&self) -> String {
        match self {
            SchemaAt::Root(path) => (*path).to_owned(),
            SchemaAt::Items(parent) => format!("{}/items", parent.path()),
            SchemaAt::Property(parent, i) => format!("{}/properties/{i}/schema", parent.path()),
            SchemaAt::AdditionalProperties(parent) => format!("{}/additional_properties", parent.path()),
            SchemaAt::AnyOf(parent, i) => format!("{}/any_of/{i}", parent.path()),
        }
    }
}
