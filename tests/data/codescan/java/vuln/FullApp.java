package com.example.demo;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class ProductController {

    @GetMapping("/products/search")
    public String search(@RequestParam("q") String q) throws Exception {
        try (Connection conn = DriverManager.getConnection(System.getenv("JDBC_URL"));
             Statement st = conn.createStatement()) {
            String sql = "SELECT name, price FROM products WHERE name LIKE '%" + q + "%'";
            ResultSet rs = st.executeQuery(sql);
            StringBuilder sb = new StringBuilder();
            while (rs.next()) {
                sb.append(rs.getString("name")).append(": ").append(rs.getBigDecimal("price")).append('\n');
            }
            return sb.toString();
        }
    }
}
