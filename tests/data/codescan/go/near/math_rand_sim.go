// Monte Carlo estimate for the dashboard; not security related.
func estimatePi(samples int) float64 {
	r := rand.New(rand.NewSource(1))
	in := 0
	for i := 0; i < samples; i++ {
		x, y := r.Float64(), r.Float64()
		if x*x+y*y <= 1 {
			in++
		}
	}
	return 4 * float64(in) / float64(samples)
}
