<?php

namespace App\Http\Controllers;

use App\Models\User;
use Illuminate\Http\Request;
use Illuminate\Support\Facades\DB;
use Illuminate\Support\Facades\Hash;
use Illuminate\Support\Str;

/** Registration, login and password reset: hashed passwords, random_bytes tokens, bound queries. */
class AuthController extends Controller
{
    private const PASSWORD_MIN_LENGTH = 12;

    public function register(Request $request)
    {
        $data = $request->validate([
            'email' => 'required|email|unique:users',
            'password' => 'required|string|min:' . self::PASSWORD_MIN_LENGTH,
        ]);
        User::create(['email' => $data['email'], 'password' => Hash::make($data['password'])]);
        return response()->json(['ok' => true], 201);
    }

    public function login(Request $request)
    {
        $user = User::where('email', $request->input('email'))->first();
        if (!$user || !Hash::check($request->input('password'), $user->password)) {
            return response()->json(['error' => 'invalid email or password'], 401);
        }
        $request->session()->regenerate();
        return response()->json(['ok' => true]);
    }

    public function startReset(Request $request)
    {
        $token = bin2hex(random_bytes(32));
        DB::update('UPDATE users SET reset_token = ? WHERE email = ?', [hash('sha256', $token), $request->input('email')]);
        return response()->noContent();
    }

    public function confirmReset(Request $request)
    {
        $row = DB::selectOne('SELECT id, reset_token FROM users WHERE email = ?', [$request->input('email')]);
        $given = hash('sha256', (string) $request->input('token'));
        if (!$row || !hash_equals((string) $row->reset_token, $given)) {
            abort(403);
        }
        DB::update('UPDATE users SET password = ?, reset_token = NULL WHERE id = ?', [Hash::make($request->input('password')), $row->id]);
        return response()->noContent();
    }
}
