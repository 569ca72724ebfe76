//! Running every case of a submission (through `run`) and judging what it printed: a
//! transcript compared per rubric item, a trace checked run by run.

pub mod cases;
pub mod verdict;
