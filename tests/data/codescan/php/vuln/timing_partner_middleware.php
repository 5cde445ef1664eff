class VerifyPartnerToken
{
    public function handle(Request $request, Closure $next)
    {
        if ($request->header('X-Partner-Token') !== config('services.partner.token')) {
            abort(401);
        }

        return $next($request);
    }
}
