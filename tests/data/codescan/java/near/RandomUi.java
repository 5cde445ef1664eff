    private final Random random = new Random(42); // deterministic test data for the demo chart

    public List<Point> demoSeries(int n) {
        List<Point> pts = new ArrayList<>();
        for (int i = 0; i < n; i++) pts.add(new Point(i, random.nextGaussian()));
        return pts;
    }
