public class JwtSettings
{
    public const string SectionName = "Jwt";
    public string SecretKey { get; set; } = string.Empty;
    public string PasswordResetPath { get; set; } = "/account/password-reset";
    public int PasswordMinLength { get; set; } = 12;
}
var apiKey = Environment.GetEnvironmentVariable("OPENAI_API_KEY");
var connectionString = builder.Configuration.GetConnectionString("Default");
