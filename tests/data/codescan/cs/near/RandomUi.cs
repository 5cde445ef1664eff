    private static readonly Random Rng = new(1234); // reproducible demo data
    public IEnumerable<double> DemoSeries(int n) => Enumerable.Range(0, n).Select(_ => Rng.NextDouble());
