package com.example.web;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.*;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.*;

import org.junit.jupiter.api.Test;

class UserControllerTest extends WebTestBase {
    private static final String PASSWORD = "correct horse battery staple";

    @Test
    void registerThenLogin() throws Exception {
        mvc.perform(post("/register").param("email", "a@example.com").param("password", PASSWORD).with(csrf()))
           .andExpect(status().isCreated());
        mvc.perform(post("/login").param("username", "a@example.com").param("password", PASSWORD).with(csrf()))
           .andExpect(status().is3xxRedirection());
    }

    @Test
    void downloadRejectsTraversal() throws Exception {
        mvc.perform(get("/download").param("filename", "../../etc/passwd")).andExpect(status().isForbidden());
    }
}
