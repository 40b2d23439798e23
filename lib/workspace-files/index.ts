/**
 * Workspace folders and files (decisions.md: Assets, folders, files): folders nested at most 20
 * levels, text files saved with expectedRevision, files backed by uploaded assets, names unique in
 * their folder ignoring case across files and folders, and refusals (409) for a clash, a folder
 * that holds anything and a file still in use. Structural changes take the workspace's advisory
 * lock (repository.lockWorkspaceFiles), so their checks never race; every change is audited.
 */
export * from "./schemas";
export { fileUsages, describeUsage } from "./usages";
export { lockWorkspaceFiles } from "./repository";
export { folderTree, filesAtPaths, FolderTree } from "./lookup";
export { referencePath, workspaceReferences } from "./references";
export { requireFolder } from "./shared";
export { createFolder, getFolder, listFolders, folderTrail, assetChoices, allFolders, updateFolder, deleteFolder } from "./folders";
export { createFile, getFile, listFiles, saveFileContent, updateFile, deleteFile, listFileUsages } from "./files";
