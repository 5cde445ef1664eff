class LoginControllerTest {
    @Test
    void rejectsWrongPassword() throws Exception {
        mvc.perform(post("/login").param("username", "alice").param("password", "wrong"))
           .andExpect(status().isUnauthorized());
    }
}
