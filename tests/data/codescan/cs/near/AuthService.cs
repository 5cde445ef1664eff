using System.Security.Cryptography;
using Microsoft.AspNetCore.Identity;
using Microsoft.Data.SqlClient;

namespace Shop.Auth;

/// <summary>Registration, login and reset: hashed passwords, CSPRNG tokens, parameterised SQL.</summary>
public sealed class AuthService
{
    private const int PasswordMinLength = 12;
    private readonly string _connectionString;
    private readonly PasswordHasher<string> _hasher = new();

    public AuthService(IConfiguration config) => _connectionString = config.GetConnectionString("Default")!;

    public async Task RegisterAsync(string email, string password)
    {
        if (password.Length < PasswordMinLength) throw new ArgumentException("password too short");
        await using var conn = new SqlConnection(_connectionString);
        await conn.OpenAsync();
        await using var cmd = new SqlCommand("INSERT INTO Users (Email, PasswordHash) VALUES (@e, @h)", conn);
        cmd.Parameters.AddWithValue("@e", email);
        cmd.Parameters.AddWithValue("@h", _hasher.HashPassword(email, password));
        await cmd.ExecuteNonQueryAsync();
    }

    public async Task<bool> LoginAsync(string email, string password)
    {
        await using var conn = new SqlConnection(_connectionString);
        await conn.OpenAsync();
        await using var cmd = new SqlCommand("SELECT PasswordHash FROM Users WHERE Email = @e", conn);
        cmd.Parameters.AddWithValue("@e", email);
        var hash = (string?)await cmd.ExecuteScalarAsync();
        return hash != null && _hasher.VerifyHashedPassword(email, hash, password) != PasswordVerificationResult.Failed;
    }

    public static string NewResetToken() => Convert.ToBase64String(RandomNumberGenerator.GetBytes(32));

    public static bool TokensMatch(byte[] stored, byte[] given) => CryptographicOperations.FixedTimeEquals(stored, given);
}
