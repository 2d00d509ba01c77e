package io.promptd.interop.springboot;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring Boot servlet application with nothing of its own: promptd-java-sdk-endpoint's
 * auto-configuration serves the folder {@code promptd.prompts.dirs} names in both eras at
 * {@code /mcp}.
 */
@SpringBootApplication
public class DualEraApplication {}
