package io.promptd.javasdk.springmistakes;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A Spring AI MCP server application whose prompt beans have mistakes. */
@SpringBootApplication
public class MistakesApplication {}
