use Firebase\JWT\JWT;
use Firebase\JWT\Key;

$decoded = JWT::decode($jwt, new Key($publicKey, 'RS256'));
$userId = $decoded->sub;
