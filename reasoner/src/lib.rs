//! reasoner
