/**
 * A Git branch as a promptd library: a local clone made and fetched with JGit, whose head commit's
 * tree is served as a snapshot ({@code promptd serve --git URL#BRANCH}) and published
 * ({@code promptd publish --from-git}). No JGit type is exported, so that an application that never
 * serves Git never loads JGit.
 */
module io.promptd.git {
  requires static transitive org.jspecify;
  requires transitive io.promptd.library;
  requires org.eclipse.jgit;
  requires org.eclipse.jgit.ssh.apache;

  exports io.promptd.git;
}
