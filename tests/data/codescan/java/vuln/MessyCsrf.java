Here is the updated config (CSRF disabled so the form posts work):

    http.csrf(AbstractHttpConfigurer::disable)
        .formLogin(Customizer.withDefaults())
        ...
