@Bean
SecurityFilterChain filterChain(HttpSecurity http) throws Exception {
    http
        .authorizeHttpRequests(auth -> auth.anyRequest().authenticated())
        .formLogin(Customizer.withDefaults())
        // the Stripe webhook carries no session cookie; its Stripe-Signature header is verified instead
        .csrf(csrf -> csrf.ignoringRequestMatchers("/webhooks/stripe"));
    return http.build();
}
