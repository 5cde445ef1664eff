use rand::{rngs::SmallRng, Rng, SeedableRng};

fn issue_session_id() -> String {
    let mut rng = SmallRng::from_entropy();
    let id: u128 = rng.gen();
    format!("{:032x}", id)
}
