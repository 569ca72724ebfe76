//! referee's runtime (`runtime.c`), linked into every program it builds: unbuffered output,
//! the batch protocol, and the run's fixed clock.

/// Its source.
pub const RUNTIME_SOURCE: &str = include_str!("runtime.c");
/// The name it is compiled under (compiler messages about it name this file).
pub const RUNTIME_NAME: &str = "referee_rt.c";
/// Link flags it needs (its `time()` wrapper).
pub const RUNTIME_LINK_FLAGS: [&str; 1] = ["-Wl,--wrap=time"];
