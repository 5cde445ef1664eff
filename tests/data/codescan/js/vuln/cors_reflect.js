app.use(cors({
  origin: true,
  credentials: true,
}));
