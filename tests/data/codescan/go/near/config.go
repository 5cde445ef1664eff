type Config struct {
	DatabasePassword string `env:"DB_PASSWORD"`
	OpenAIKey        string `env:"OPENAI_API_KEY"`
	TokenHeader      string `default:"X-Auth-Token"`
}

const passwordResetPath = "/password/reset"

func Load() Config {
	return Config{DatabasePassword: os.Getenv("DB_PASSWORD"), OpenAIKey: os.Getenv("OPENAI_API_KEY")}
}
