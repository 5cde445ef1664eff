Route::middleware('auth')->group(function () {
    Route::get('/profile', [ProfileController::class, 'edit'])->name('profile.edit');
    Route::post('/profile/email', [ProfileController::class, 'updateEmail'])
        ->withoutMiddleware([VerifyCsrfToken::class]);
});
