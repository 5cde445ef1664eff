<?php

namespace App\Http\Middleware;

use Illuminate\Foundation\Http\Middleware\VerifyCsrfToken as Middleware;

class VerifyCsrfToken extends Middleware
{
    // Stripe calls this route without a session; the controller verifies the Stripe-Signature header
    protected $except = [
        'stripe/webhook',
    ];
}
