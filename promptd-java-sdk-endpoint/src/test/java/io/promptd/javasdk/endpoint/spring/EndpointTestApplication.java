package io.promptd.javasdk.endpoint.spring;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A servlet web application with nothing of its own: its prompts come from promptd.prompts.dirs.
 */
@SpringBootApplication
public class EndpointTestApplication {}
