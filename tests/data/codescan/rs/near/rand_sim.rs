// Simulation for the capacity chart; not security related.
fn simulate(n: usize) -> Vec<f64> {
    let mut rng = SmallRng::seed_from_u64(7);
    (0..n).map(|_| rng.gen::<f64>()).collect()
}
