//! Finding submissions: one file, a folder, a zip, a batch of them, or an LMS export with
//! students' names; and what a C file holds, read as text.

pub mod csource;
pub mod layout;
pub mod submission;
